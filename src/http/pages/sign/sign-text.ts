// The signing page's words for guided filling, in one place so a translation catalogue can take them
// over: the HTML uses them and passes them to the page's script (sign.js) in its config.
export const SIGN_TEXT = {
  nextField: 'Next field',
  /** A field's box on the document, by its accessible name. */
  marker: '{label}, on page {page}',
  markerValue: '{label}: {value}, on page {page}',
  finish: 'Finish',
  /** "{done} of {total}" required fields done. */
  progress: '{done} of {total}',
  progressLong: '{done} of {total} required fields done. Fields marked * are required.',
  allDone: 'All required fields are done. Tick the agreement and finish.',
  missingOne: 'Please complete this required field: {labels}.',
  missingMany: 'Please complete these {count} required fields: {labels}.',
  fixOne: 'Please correct this field: {labels}.',
  fixMany: 'Please correct these {count} fields: {labels}.',
  unsaved: 'You have unsaved input on this page. Leave anyway?',
  restored: 'Your earlier input on this page was restored.',
} as const;
