import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateBuiltin } from '../../src/domain/generate/builtin.js';
import { scoreStranger, strangerTotals } from './corpus/strangers-score.js';
import { loadWritten } from './corpus/written-score.js';

// Issue 44, the corpus written by hand (test/generate/corpus/written): each kind of structure its tuning
// set taught, then the tuning set's floor. The held-aside set is never read here (npm run eval:written -- --aside).

const fields = (prompt: string): string[] => generateBuiltin(prompt).fields.map((f) => `${f.label}:${f.type}${f.options ? `=${f.options.join('/')}` : ''}${f.required ? '' : '?'}@${f.signer}`);

describe('built-in generator on descriptions written by strangers', () => {
  it('reads a reply thread message by message: the quoted request first, greetings and senders dropped', () => {
    const spec = generateBuiltin('Hi Tobi,\n\nja, machen wir so. Bitte noch Zahlungsart dazu: bar | Überweisung | PayPal.\n\nLG Anja\n\nAm Mi., 2. Dez. 2026 um 19:12 schrieb Tobias Lang <tobi@example.de>:\n> Hallo Anja,\n> für die Sammelbestellung würde ich ein Formular machen: Name, Mitgliedsnummer und dann bis zu 2 Artikel, jeweils Artikel und Größe.\n> Das Mitglied unterschreibt.\n> Gruß Tobi');
    const got = spec.fields.map((f) => `${f.label}:${f.type}${f.options ? `=${f.options.join('/')}` : ''}`);
    // The quoted request comes first, its repeated row read; the reply adds its choice; the sender signs nowhere.
    assert.deepEqual(got.slice(0, 2), ['Name:text', 'Mitgliedsnummer:text']);
    assert.ok(got.includes('Artikel 2 Größe:text') && got.some((f) => /Zahlungsart.*:radio=Bar\/Überweisung\/PayPal/.test(f)), got.join(', '));
    assert.ok(got.indexOf('Artikel 2 Größe:text') < got.findIndex((f) => f.includes('Zahlungsart')), got.join(', '));
    assert.ok(!got.some((f) => /Anja|Tobi|Hallo/.test(f)), got.join(', '));
    assert.deepEqual(spec.signers.map((s) => s.role), ['Mitglied']);
  });

  it('reads a chat pasted from Slack: speakers over their lines, the others\' answers dropped', () => {
    assert.deepEqual(fields('Maya Chen  10:42 AM\nemployee name, serial number\n\nTom Reyes  10:44 AM\nsure what fields\n\nMaya Chen  10:48 AM\nemployee signs'),
      ['Employee name:text@1', 'Serial number:text@1', 'Employee signature:signature@1']);
  });

  it('makes a table of empty rows a repeated row, in pipes or tabs', () => {
    const pipes = generateBuiltin('| # | Descripción | Cantidad |\n|---|---|---|\n| 1 | | |\n| 2 | | |\nFirma el cliente.').fields;
    assert.deepEqual(pipes.slice(0, 4).map((f) => `${f.name}:${f.type}${f.required ? '' : '?'}`), ['fila_1_descripcion:text?', 'fila_1_cantidad:number?', 'fila_2_descripcion:text?', 'fila_2_cantidad:number?']);
    const tabs = generateBuiltin('Arbeitszeitnachweis\n\nName:\t\t\tMonat:\n\nDatum\tPause\n\t\n\t\n\nUnterschrift Arbeitnehmer\t\tUnterschrift Arbeitgeber').fields;
    assert.deepEqual(tabs.map((f) => `${f.label}:${f.type}@${f.signer}`), [
      'Name:text@1', 'Monat:text@1', 'Zeile 1 Datum:date@1', 'Zeile 1 Pause:text@1', 'Zeile 2 Datum:date@1', 'Zeile 2 Pause:text@1',
      'Unterschrift Arbeitnehmer:signature@1', 'Unterschrift Arbeitgeber:signature@2',
    ]);
  });

  it('reads a row\'s count in brackets or before its noun, each column keeping its choices', () => {
    assert.deepEqual(generateBuiltin('Registrazione: per ogni ospite (massimo 2): nome, documento (carta / passaporto). Firma l\'ospite.').fields.slice(0, 4).map((f) => `${f.name}:${f.type}`),
      ['ospite_1_nome:text', 'ospite_1_documento:radio', 'ospite_2_nome:text', 'ospite_2_documento:radio']);
    assert.deepEqual(generateBuiltin('Expense claim: name, then up to 2 expenses, each with a date, a category (travel, meals or other) and the amount. The claimant signs.').fields.map((f) => f.name).slice(1, 7),
      ['expense_1_date', 'expense_1_category', 'expense_1_amount', 'expense_2_date', 'expense_2_category', 'expense_2_amount']);
  });

  it('reads a trailing "yes or no" as a yes/no question in every language', () => {
    assert.deepEqual(fields('Anmeldung: Name, Vegetarier ja oder nein. Der Spieler unterschreibt.').slice(1, 2), ['Vegetarier:radio=Ja/Nein@1']);
    assert.deepEqual(fields('Parte: nombre, baja médica sí o no. Firma el trabajador.').slice(1, 2), ['Baja médica:radio=Sí/No@1']);
  });

  it('names signers as parties: "I sign as", participles with their agent, "then"', () => {
    assert.deepEqual(generateBuiltin('Lodger agreement: full name, rent. I sign as landlord and then the lodger signs.').signers.map((s) => s.role), ['Landlord', 'Lodger']);
    assert.deepEqual(generateBuiltin('Demande de subvention : nom, montant. La demande doit être signée par le président puis par le trésorier.').signers.map((s) => s.role), ['Président', 'Trésorier']);
    assert.deepEqual(generateBuiltin('Antrag: Name, Abteilung. Unterschreiben sollen zuerst der Beschäftigte, dann die direkte Führungskraft und zuletzt der Betriebsrat.').signers.map((s) => s.role), ['Beschäftigte', 'Führungskraft', 'Betriebsrat']);
    // "they sign as well" names no party: never a role called "As well".
    const hire = generateBuiltin('Hire agreement: name, licence number. The hirer signs, and if there is an additional driver they sign as well.').signers.map((s) => s.role);
    assert.ok(hire.includes('Hirer') && !hire.some((r) => /well/i.test(r)), hire.join(', '));
  });

  it('reads dictation: spoken punctuation written, a run-on sentence parted into items and a signing clause', () => {
    assert.deepEqual(fields('anmeldung zum kochkurs komma name komma telefon komma email punkt vegetarier ja oder nein punkt der teilnehmer unterschreibt punkt'),
      ['Name:text@1', 'Telefon:phone@1', 'Email:email@1', 'Vegetarier:radio=Ja/Nein@1', 'Unterschrift (Teilnehmer):signature@1']);
    // No punctuation at all: "then" ends a sentence, "which is a b or c" is a choice, English heads come last ("phone number").
    const bike = generateBuiltin('ok so the form for the bike club membership is name address phone number email then the membership type which is junior adult or senior then the member signs and the club secretary signs too');
    assert.deepEqual(bike.fields.map((f) => `${f.label}:${f.type}${f.options ? `=${f.options.join('/')}` : ''}`).slice(0, 5),
      ['Name:text', 'Address:text', 'Phone number:phone', 'Email:email', 'Membership type:radio=Junior/Adult/Senior']);
    assert.deepEqual(bike.signers.map((s) => s.role), ['Member', 'Club secretary']);
    // Italian: a field word after a noun starts the next item ("nome del socio data di nascita"); "poi" ends a sentence.
    const bici = generateBuiltin('modulo per il prestito della bicicletta nome del socio data di nascita cellulare email poi la data di ritiro la data di riconsegna e se vuole il casco sì o no firma il socio e firma il responsabile del deposito');
    assert.deepEqual(bici.fields.filter((f) => f.type !== 'signature').map((f) => `${f.label}:${f.type}`).slice(0, 6),
      ['Nome del socio:text', 'Data di nascita:date', 'Cellulare:phone', 'Email:email', 'Data di ritiro:date', 'Data di riconsegna:date']);
    assert.deepEqual(bici.signers.map((s) => s.role), ['Socio', 'Responsabile del deposito']);
  });

  it('names German signers written in lower case, as dictation types them', () => {
    assert.deepEqual(generateBuiltin('Mängelanzeige: Name, Auftragsnummer. unterschreiben kunde und bauleiter').signers.map((s) => s.role.toLowerCase()), ['kunde', 'bauleiter']);
  });

  it('refuses Romanian, and does not refuse an English list of field words', () => {
    assert.throws(() => generateBuiltin('Bună ziua, Aș avea nevoie de un formular de înscriere pentru cursul de dans pentru copii. Ne trebuie numele copilului, data nașterii, numele părintelui și numărul de telefon.'), /Romanian/);
    assert.equal(generateBuiltin('Key holder form: name, flat number, number of keys, date issued. Tenant + building manager sign.').language, 'en');
  });

  it('holds its figures on the tuning set', () => {
    const cases = loadWritten('tuning');
    assert.ok(cases.length >= 100, `${cases.length} cases`);
    const t = strangerTotals(cases.map(scoreStranger));
    const figures = JSON.stringify({ ...t, badRoles: t.badRoles.length });
    // Floors of the 200-case tuning set (the first held-aside 60 joined it once reported): raised as the
    // generator improves, never lowered to pass.
    assert.ok(t.recall >= 0.74 && t.precision >= 0.73 && t.typeAccuracy >= 0.85, figures);
    assert.ok(t.signerCountExact >= 0.62 && t.optionsAccuracy >= 0.73 && t.multilineAccuracy >= 0.95, figures);
    assert.equal(t.wrongRefusals, 0, figures);
    assert.equal(t.refusedRight, '10/10', figures);
    assert.ok(t.badRoles.length <= 14, figures);
  });
});
