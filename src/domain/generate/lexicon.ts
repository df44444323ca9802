// The words the built-in generator knows, in English, Spanish, French, German, Italian and Portuguese. Patterns run on
// folded text (lower case, accents removed: see fold()), so "Teléfono" and "telefono" are one word.
import type { FieldType } from '../../pdf/index.js';
import { LANGUAGES, type Language } from './spec.js';

export function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/ß/g, 'ss');
}

const w = (alternatives: string): RegExp => new RegExp(`(?:^|[^a-z0-9])(?:${alternatives})(?![a-z0-9])`);

/** Signature, initials and the date of signing: matched before anything else. */
export const DATE_SIGNED = w('date signed|signing date|date of signing|date of signature|signature date|fecha de (?:la )?firma|date de (?:la )?signature|datum der unterschrift|unterschriftsdatum|data (?:della|da) (?:firma|assinatura)');
export const INITIALS = w('initials?|initialed|iniciales|paraphes?|initialen|kurzzeichen|kurzel|parafe|sigla|rubrica');
export const SIGNATURE = w('signatures?|signed by|firmas?|unterschrift(?:en)?|signatory|signataire|assinaturas?');
/** In German "Firma" is a company, not a signature. */
export const SIGNATURE_DE = w('signatures?|unterschrift(?:en)?|signatory');

/** "I agree …": a statement the signer ticks. `required` when it is consent rather than a preference. */
export const CONSENT = w('^(?:acknowledge|accept|agree to|consent to|authori[sz]e)|i have (?:read|received|been (?:informed|given|told))|(?:must|should|need to|have to) (?:agree|consent|accept|acknowledge|confirm)|(?:they|you|he|she) (?:also )?(?:agrees?|consents?|accepts?|acknowledges?|certify|certifies|authori[sz]es?)|he leido|j[\'’ ]?ai lu|ich habe (?:\\w+ )*gelesen|i (?:hereby )?(?:agree|consent|accept|acknowledge|authori[sz]e|certify|confirm|understand|give (?:my )?permission|grant|release|declare|allow|permit)|(?:confirm|confirms|acknowledge|acknowledges|accept|accepts) that|acepto|doy mi consentimiento|autorizo|declaro|certifico|j[\'’ ]?accepte|j[\'’ ]?autorise|je certifie|je confirme|je consens|je reconnais|ich bin einverstanden|ich stimme|ich akzeptiere|ich bestatige|ich erklare|einverstanden|ich verpflichte mich|(?:agrees?|accepts?|confirms?) that|^agrees? to|acepta que|declara que|me comprometo|accepte que|je m[\'’ ]?engage|zustimmt|stimmt zu|accetto|acconsento|dichiaro|autorizzo|mi impegno|accetta che|aceito|concordo|comprometo-me|comprometo me|aceita que|acknowledg(?:e)?ment|i understand');
export const PREFERENCE = w('i (?:would like|wish|want|prefer)|me gustaria|je souhaite|ich mochte|vorrei|gostaria');

const EMAIL = w('e ?-?mails?|email address|correo(?: electronico)?|courriel|adresse electronique|mail|posta elettronica');
const PHONE = w('phones?|telephone|tel|mobile|cell(?: ?phone)?|cellular|fax|telefonos?|movil|celular|telephone portable|portable|telefon(?:nummer)?|handy(?:nummer)?|mobilnummer|mobil|\\w+telefon|cellulare|telefono|telemovel|telefone|notfallnummer|notrufnummer|(?:contacto|contatto|numero|contact) telefonic[oa]|telephonique|telefonisch\\w*');
const DATE = w('date|dates|birthday|dob|deadline|expiry|expiration|expires|valid until|due date|due on|due by|day of|last (?:\\w+ )?visit|first day|last day|working day|week (?:starting|of)|fecha|nacimiento|cumpleanos|vencimiento|naissance|echeance|datum|geburtsdatum|geburtstag|frist|ablauf\\w*|\\w+tag|\\w+beginn|\\w+ende|\\w+datum|beginn|fin de|debut|inicio|fin|primer dia|ultimo dia|premier jour|dernier jour|primo giorno|ultimo giorno|primeiro dia|nascita|scadenza|nascimento|validade|available from|data (?:di|de|da|do|della|dell|del|dello|dos)|\\w+datum|inizio|ende|data (?:prevista|presunta|limite|stimata)');
const DATE_ON = /(?:^|\s)(?:on|since|until|from|starting|start(?:s|ing)? on)$/;
const NUMBER = w('amount|salary|wage|price|cost|fee|fees|rent|deposit|income|revenue|total|quantity|qty|number of|how many|years of|years experience|how much|age|how old|hours|weight|height|mileage|miles|km|kilometerstand|kilometraje|kilometrage|kilometers|gpa|rate|budget|limit|count|percentage|percent|score|per (?:week|month|year|day|visit|hour)|years? in|in years|dose|sessions|bedrooms|bathrooms|siblings|attendees|occupants|guests|year|from \\d+ to \\d+|on a scale|rating|importe|monto|cantidad|salario|sueldo|precio|renta|deposito|ingresos|edad|numero de \\w+s|costo|coste|tarifa|montant|salaire|prix|loyer|depot|revenus?|nombre de \\w+s|quantite|tarif|betrag|gehalt|preis|miete|kaution|\\w+(?:betrag|summe|hohe|preis|kosten|gebuhren?|miete)|einkommen|anzahl|menge|summe|kosten|alter|gebuhr|\\w+einkommen|\\w+satz|\\w+preis|in months|en meses|en mois|in monaten|in mesi|em meses|odometer|kilometros|chilometri(?: percorsi)?|quilometros|kilometres|quilometragem|chilometraggio|kilometri|importo|prezzo|canone|deposito cauzionale|reddito|eta|tariffa|costo|numero di \\w+i|quantita|quantidade|qtd|valore|valor|preco|renda|caucao|rendimento|idade|montante|tarifa|numero de dias|airfare|totale?|gesamtbetrag|nombre d[\\x27’ ]?\\w+s|kilometer|pedaggi?|tolls?|peajes?|peages?|portagens?|fianza|isee|taux(?: horaire)?|tasso|taxa|\\w*stundenlohn|wochenarbeitszeit|\\w*stunden');
const ID_NUMBER_ROMANCE = /(?:numero|nummer|n)\s+(?:de|di|du|da|do|del|della)\s+(?:permis|patente|carnet|serie|cuenta|compte|conto|conta|poliza|police|polizza|apolice|pasaporte|passeport|passaporto|passaporte|contrat|contrato|contratto|client|cliente|empleado|employe|funcionario|dipendente|factura|facture|fattura|fatura|pedido|commande|ordine|encomenda|seguro|securite sociale|identite|carta|socio|adherent|membre)/;
const ID_NUMBER = /(?:^|\s)(?:phone|telephone|mobile|policy|account|routing|order|quote|invoice|license|licence|serial|space|unit|apartment|customer|member|employee|student|tax|vat|id|reference|case|ticket|tracking|passport|social security|card|house|room|flat|suite|registration|vin|contract|project)\s+(?:number|no|#)\b/;
const MULTILINE = w('detalles?|dettagl[io]|detalhes?|detaillez|einzelheiten|ausfuhrlich|\\w*schilderung|describ[ae]|describir|decrivez|decrire|descriva|descrivere|descreva|descrever|spieghi|spiegare|spiegazione|expliquez|expliquer|explicar|explique|erlauterung|erlautern sie|motivazione|justificacion|justification|justificativa|giustificazione|address|addresses|comments?|describe|description|notes?|reason|reasons|message|explain|explanation|details|instructions|statement|cover letter|what happened|feedback|remarks|requests|concerns|history|summary|medications?|medical(?: conditions?)?|allerg(?:y|ies)|purpose|scope of work|about yourself|dietary(?: \\w+)?|injury|injuries|corrective actions?|\\w*hergang|antecedents?(?: medicaux)?|contre-?indications?|condizioni di \\w+|non conformita|medidas \\w+|finalidade|symptoms?|sintomas|symptomes|sintomi|symptome|alergias?|medicacion|finalidad|objeto|lesion|medidas correctoras|alimentarias|objet|traitements?|blessures|actions correctives|regime alimentaire|\\w*anschrift|\\w+adresse|\\w*beschreibung|\\w*zweck|medikamente|allergien|verletzung|\\w*massnahmen|ernahrungswunsche|indirizzo|descrizione|motivo|note|commenti|osservazioni|oggetto|finalita|farmaci|allergie|azioni correttive|esigenze alimentari|morada|endereco|descricao|observacoes|comentarios|medicacao|restricoes alimentares|acoes corretivas|direccion|domicilio|comentarios?|descripcion|motivo|notas?|mensaje|observaciones|explique|adresse|commentaires?|motif|remarques?|observations|anschrift|adresse|bemerkungen?|beschreibung|grund|nachricht|kommentare?|anmerkungen?|begrundung|hinweise');
/** Contact-type addresses are not postal: "email address" stays an e-mail field. */
const NOT_POSTAL = w('e ?-?mail ?-?adresse|\\w*mailadresse|e ?-?mail address|email address|web address|ip address|adresse e ?-?mail|adresse electronique|correo electronico');

/** Free remarks ("comments", "notes") are never required unless the text says so. */
export const REMARKS = /^(?:(?:any|other|additional|general|further)\s+)*(?:comments?|notes?|remarks?|(?:special|any) requests|peticiones especiales|demandes particulieres|besondere wunsche|richieste particolari|pedidos especiais|observations?|observaciones(?: generales)?|comentarios?|commentaires?|remarques?|bemerkungen|anmerkungen|kommentare?|note(?: generali)?|commenti|osservazioni|observacoes(?: gerais)?|comentarios?)(?:\s+(?:generales?|generaux|gerais|generali))?$/;
export const OPTIONAL = w('optional|optionally|if any|of any|si los hay|if applicable|not required|opcional|facultatif|facultative|optionnel|optionnelle|freiwillig|falls zutreffend|falls vorhanden|gegebenenfalls|wahlweise|if insured|if there is one|if relevant|si tiene|si las hay|si lo hay|si corresponde|en su caso|le cas echeant|eventuel(?:le)?s?|facoltativo|facoltativa|opzionale|se presente|se presenti|se applicabile|eventuali|se houver|se tiver|se aplicavel|eventuais');
export const REQUIRED = w('required|mandatory|must|obligatorio|obligatoire|pflicht|erforderlich|obbligatorio|obrigatorio');

export const YES_NO = /^(?:yes|no|si|oui|non|ja|nein|y|n|sim|nao)$/;

/** The type a phrase names, apart from choices (options) and signatures, which the caller decides. */
export function typeOf(folded: string): FieldType {
  if (PHONE.test(folded) && !ID_NUMBER.test(folded.replace(/\b(?:phone|telephone|mobile)\s+number\b/, ''))) {
    // "phone number" is a phone; "pick-up person phone" too; "phone" wins over the person words.
    return 'phone';
  }
  if (EMAIL.test(folded)) return 'email';
  // "Budget code", "codice fiscale": a code is text whatever it names.
  if (ID_NUMBER.test(folded) || ID_NUMBER_ROMANCE.test(folded) || /\b(?:code|codes|codigo|codice|kennziffer)\b/.test(folded)) return 'text';
  if (/^\s*data\s*$/.test(folded)) return 'date';
  // A glued "date and time" (segment.ts, glue): "data e a hora da ocorrência", "Datum und Uhrzeit".
  if (/^(?:date|fecha|data|datum)\u00a0/.test(folded)) return 'date';
  // "Hora de início", "heure d'arrivée", "Uhrzeit", "ora": a time is text (there is no time type), unless it names the date too.
  const time = /\b(?:time|hora|heure|uhrzeit|ora|orario|horario)\b/.test(folded) && !/\b(?:date|fecha|datum|data)\b/.test(folded);
  if (DATE.test(folded) || DATE_ON.test(folded) || /^when\b/.test(folded)) {
    // "start time" and "time of incident" stay text: there is no time type.
    if (!time) return 'date';
  }
  // "Linha 1 Data", "Data consegna": "data" is the date in Italian and Portuguese.
  if (/(?:^|\s)data(?:\s+\p{L}+)?$/u.test(folded) && !/\b(?:personal|dati|dados)\b/.test(folded)) return 'date';
  // "N.º de horas", "numero di ore": a count of hours.
  if (/\b(?:horas|heures|ore|stunden)\b/.test(folded) && !time) return 'number';
  if (NUMBER.test(folded) && !/\b(?:year group|school year|year of study|rate the|rate your|ano escolar)\b/.test(folded)) return 'number';
  return 'text';
}

export function isMultiline(folded: string): boolean {
  return MULTILINE.test(folded) && !NOT_POSTAL.test(folded);
}

/** Words of the texts the generator adds itself, in the description's language. */
export const WORDS: Record<Language, { yes: string; no: string; signature: string; signer: string; dateSigned: string; initials: string; form: string; of: (role: string) => string }> = {
  en: { yes: 'Yes', no: 'No', signature: 'Signature', signer: 'Signer', dateSigned: 'Date signed', initials: 'Initials', form: 'Form', of: (r) => `${r} signature` },
  es: { yes: 'Sí', no: 'No', signature: 'Firma', signer: 'Firmante', dateSigned: 'Fecha de firma', initials: 'Iniciales', form: 'Formulario', of: (r) => `Firma (${r})` },
  fr: { yes: 'Oui', no: 'Non', signature: 'Signature', signer: 'Signataire', dateSigned: 'Date de signature', initials: 'Initiales', form: 'Formulaire', of: (r) => `Signature (${r})` },
  de: { yes: 'Ja', no: 'Nein', signature: 'Unterschrift', signer: 'Unterzeichner', dateSigned: 'Datum der Unterschrift', initials: 'Kürzel', form: 'Formular', of: (r) => `Unterschrift (${r})` },
  it: { yes: 'Sì', no: 'No', signature: 'Firma', signer: 'Firmatario', dateSigned: 'Data della firma', initials: 'Sigla', form: 'Modulo', of: (r) => `Firma (${r})` },
  pt: { yes: 'Sim', no: 'Não', signature: 'Assinatura', signer: 'Signatário', dateSigned: 'Data da assinatura', initials: 'Rubrica', form: 'Formulário', of: (r) => `Assinatura (${r})` },
};

const STOP: Record<Language, string[]> = {
  en: ['the', 'and', 'of', 'for', 'with', 'your', 'name', 'email', 'phone', 'signature', 'sign', 'date', 'address', 'number', 'their', 'to'],
  es: ['el', 'la', 'los', 'las', 'y', 'del', 'de', 'para', 'con', 'nombre', 'fecha', 'firma', 'correo', 'telefono', 'direccion', 'su'],
  fr: ['le', 'la', 'les', 'et', 'du', 'des', 'de', 'pour', 'avec', 'nom', 'prenom', 'adresse', 'telephone', 'votre', 'l', 'd'],
  de: ['der', 'die', 'das', 'und', 'des', 'mit', 'fur', 'von', 'name', 'unterschrift', 'datum', 'vorname', 'nachname', 'anschrift', 'ihre', 'ich', 'unterschreibt', 'unterschreiben', 'oder', 'ein', 'eine', 'den', 'dem'],
  it: ['il', 'lo', 'gli', 'e', 'della', 'dello', 'dell', 'di', 'per', 'nome', 'cognome', 'indirizzo', 'firma', 'firmano', 'telefono', 'data', 'nascita', 'che', 'se', 'un', 'una', 'sono', 'ci', 'con', 'dei', 'delle', 'cellulare', 'nascita', 'grazie'],
  pt: ['o', 'os', 'as', 'e', 'do', 'da', 'dos', 'das', 'de', 'para', 'com', 'nome', 'morada', 'telefone', 'assinatura', 'assina', 'assinam', 'um', 'uma', 'se', 'nao', 'sim', 'endereco', 'em', 'ao', 'nascimento', 'telemovel', 'celular', 'assinatura', 'voce', 'obrigado', 'dos', 'pelo', 'pela', 'ou', 'seu', 'sua', 'morada', 'nao'],
};

/** The description's language by its common words; English when nothing else clearly wins. */
export function detectLanguage(text: string): Language {
  const words = fold(text).split(/[^a-z]+/).filter(Boolean);
  let best: Language = 'en';
  let bestScore = 0;
  for (const lang of LANGUAGES) {
    const set = new Set(STOP[lang]);
    const score = words.reduce((n, x) => n + (set.has(x) ? 1 : 0), 0) * (lang === 'en' ? 1.2 : 1);
    if (score > bestScore) { best = lang; bestScore = score; }
  }
  return best;
}
