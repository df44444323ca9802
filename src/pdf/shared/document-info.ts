// What the seal writes into a sealed document's information dictionary and the verifier reads back:
// the form's id under a key of our own (covered by the seal's signature, so a valid seal vouches for
// it), and the producer's name.
export const FORM_ID_KEY = 'FormsignFormId';
export const PRODUCER = 'Formsign';
