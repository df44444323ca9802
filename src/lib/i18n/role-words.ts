import type { Locale } from './index.js';

// What recipients who do not sign read (issue 42: approver, cc, viewer) and the sender's own message's
// label: in the invitation, on their page, in the audit trail. English, German, French and Spanish;
// the other languages read English until their catalogues take these keys (as the check words do).

const EN = {
  // Audit trail: the role in a recipient's band, an approver's event.
  approver: 'Approver',
  cc: 'Copy (cc)',
  viewer: 'Viewer',
  approved: 'Approved',
  // The invitation, by role.
  'approver.subject': '{account} asks you to approve "{form}"',
  'approver.heading': 'Please approve “{form}”',
  'approver.asks': '{account} asks you to review "{form}" and approve or decline it.',
  'approver.button': 'Review and approve',
  'approver.sms': '{account} asks you to approve "{form}": {url}',
  'cc.subject': '{account} sent you a copy of "{form}"',
  'cc.heading': 'For your information: “{form}”',
  'cc.asks': '{account} sent "{form}" to be signed and copied you for your information. Nothing is asked of you; you will get the completed copy.',
  'cc.button': 'Open the document',
  'cc.sms': '{account} copied you on "{form}" (no action needed): {url}',
  'viewer.subject': '{account} asks you to read "{form}"',
  'viewer.heading': 'Please read “{form}”',
  'viewer.asks': '{account} asks you to open and read "{form}". Opening it is recorded.',
  'viewer.button': 'Open the document',
  'viewer.sms': '{account} asks you to read "{form}": {url}',
  // The sender's own words, quoted.
  messageFrom: 'Message from {account}:',
  // A reminder says what the invitation said, marked as a reminder (subject, heading, SMS).
  reminder: 'Reminder: {text}',
  // The page of a recipient who does not sign.
  'page.approverLead': '{sender} asks you to review this document and approve or decline it.',
  'page.ccLead': '{sender} sent you this document for your information. Nothing is asked of you.',
  'page.viewerLead': '{sender} asks you to read this document. Your opening it has been recorded.',
  'page.openDocument': 'Open the document (PDF)',
  'page.approve': 'Approve',
  'page.approving': 'Approving…',
  'page.approveFailed': 'The approval failed ({status}). Try again.',
  'page.approvedHeading': 'You approved “{form}”',
  'page.approvedWhen': 'Approved on {date}.',
  'page.roleTitle': '{form}',
};

export type RoleWords = typeof EN;
export type RoleWordKey = keyof RoleWords;

const DE: RoleWords = {
  approver: 'Genehmiger', cc: 'Kopie (cc)', viewer: 'Betrachter', approved: 'Genehmigt',
  'approver.subject': '{account} bittet Sie, „{form}“ zu genehmigen',
  'approver.heading': 'Bitte genehmigen Sie „{form}“',
  'approver.asks': '{account} bittet Sie, „{form}“ zu prüfen und zu genehmigen oder abzulehnen.',
  'approver.button': 'Prüfen und genehmigen',
  'approver.sms': '{account} bittet Sie, „{form}“ zu genehmigen: {url}',
  'cc.subject': '{account} hat Ihnen eine Kopie von „{form}“ gesendet',
  'cc.heading': 'Zu Ihrer Information: „{form}“',
  'cc.asks': '{account} hat „{form}“ zur Unterschrift gesendet und Sie zur Information in Kopie gesetzt. Sie müssen nichts tun; Sie erhalten die fertige Kopie.',
  'cc.button': 'Dokument öffnen',
  'cc.sms': '{account} hat Sie bei „{form}“ in Kopie gesetzt (nichts zu tun): {url}',
  'viewer.subject': '{account} bittet Sie, „{form}“ zu lesen',
  'viewer.heading': 'Bitte lesen Sie „{form}“',
  'viewer.asks': '{account} bittet Sie, „{form}“ zu öffnen und zu lesen. Das Öffnen wird festgehalten.',
  'viewer.button': 'Dokument öffnen',
  'viewer.sms': '{account} bittet Sie, „{form}“ zu lesen: {url}',
  messageFrom: 'Nachricht von {account}:',
  reminder: 'Erinnerung: {text}',
  'page.approverLead': '{sender} bittet Sie, dieses Dokument zu prüfen und zu genehmigen oder abzulehnen.',
  'page.ccLead': '{sender} hat Ihnen dieses Dokument zur Information gesendet. Sie müssen nichts tun.',
  'page.viewerLead': '{sender} bittet Sie, dieses Dokument zu lesen. Das Öffnen wurde festgehalten.',
  'page.openDocument': 'Dokument öffnen (PDF)',
  'page.approve': 'Genehmigen',
  'page.approving': 'Wird genehmigt …',
  'page.approveFailed': 'Die Genehmigung ist fehlgeschlagen ({status}). Bitte erneut versuchen.',
  'page.approvedHeading': 'Sie haben „{form}“ genehmigt',
  'page.approvedWhen': 'Genehmigt am {date}.',
  'page.roleTitle': '{form}',
};

const FR: RoleWords = {
  approver: 'Approbateur', cc: 'Copie (cc)', viewer: 'Lecteur', approved: 'Approuvé',
  'approver.subject': '{account} vous demande d’approuver « {form} »',
  'approver.heading': 'Veuillez approuver « {form} »',
  'approver.asks': '{account} vous demande d’examiner « {form} » et de l’approuver ou de le refuser.',
  'approver.button': 'Examiner et approuver',
  'approver.sms': '{account} vous demande d’approuver « {form} » : {url}',
  'cc.subject': '{account} vous a envoyé une copie de « {form} »',
  'cc.heading': 'Pour information : « {form} »',
  'cc.asks': '{account} a envoyé « {form} » pour signature et vous a mis en copie pour information. Rien ne vous est demandé ; vous recevrez la copie finale.',
  'cc.button': 'Ouvrir le document',
  'cc.sms': '{account} vous a mis en copie de « {form} » (rien à faire) : {url}',
  'viewer.subject': '{account} vous demande de lire « {form} »',
  'viewer.heading': 'Veuillez lire « {form} »',
  'viewer.asks': '{account} vous demande d’ouvrir et de lire « {form} ». L’ouverture est enregistrée.',
  'viewer.button': 'Ouvrir le document',
  'viewer.sms': '{account} vous demande de lire « {form} » : {url}',
  messageFrom: 'Message de {account} :',
  reminder: 'Rappel : {text}',
  'page.approverLead': '{sender} vous demande d’examiner ce document et de l’approuver ou de le refuser.',
  'page.ccLead': '{sender} vous a envoyé ce document pour information. Rien ne vous est demandé.',
  'page.viewerLead': '{sender} vous demande de lire ce document. Son ouverture a été enregistrée.',
  'page.openDocument': 'Ouvrir le document (PDF)',
  'page.approve': 'Approuver',
  'page.approving': 'Approbation…',
  'page.approveFailed': 'L’approbation a échoué ({status}). Réessayez.',
  'page.approvedHeading': 'Vous avez approuvé « {form} »',
  'page.approvedWhen': 'Approuvé le {date}.',
  'page.roleTitle': '{form}',
};

const ES: RoleWords = {
  approver: 'Aprobador', cc: 'Copia (cc)', viewer: 'Lector', approved: 'Aprobado',
  'approver.subject': '{account} le pide que apruebe «{form}»',
  'approver.heading': 'Apruebe «{form}»',
  'approver.asks': '{account} le pide que revise «{form}» y lo apruebe o lo rechace.',
  'approver.button': 'Revisar y aprobar',
  'approver.sms': '{account} le pide que apruebe «{form}»: {url}',
  'cc.subject': '{account} le envió una copia de «{form}»',
  'cc.heading': 'Para su información: «{form}»',
  'cc.asks': '{account} envió «{form}» para firmar y le puso en copia para su información. No se le pide nada; recibirá la copia completada.',
  'cc.button': 'Abrir el documento',
  'cc.sms': '{account} le puso en copia de «{form}» (no hace falta hacer nada): {url}',
  'viewer.subject': '{account} le pide que lea «{form}»',
  'viewer.heading': 'Lea «{form}»',
  'viewer.asks': '{account} le pide que abra y lea «{form}». La apertura queda registrada.',
  'viewer.button': 'Abrir el documento',
  'viewer.sms': '{account} le pide que lea «{form}»: {url}',
  messageFrom: 'Mensaje de {account}:',
  reminder: 'Recordatorio: {text}',
  'page.approverLead': '{sender} le pide que revise este documento y lo apruebe o lo rechace.',
  'page.ccLead': '{sender} le envió este documento para su información. No se le pide nada.',
  'page.viewerLead': '{sender} le pide que lea este documento. Su apertura ha quedado registrada.',
  'page.openDocument': 'Abrir el documento (PDF)',
  'page.approve': 'Aprobar',
  'page.approving': 'Aprobando…',
  'page.approveFailed': 'La aprobación falló ({status}). Inténtelo de nuevo.',
  'page.approvedHeading': 'Aprobó «{form}»',
  'page.approvedWhen': 'Aprobado el {date}.',
  'page.roleTitle': '{form}',
};

const BY_LANGUAGE: Partial<Record<Locale, RoleWords>> = { en: EN, de: DE, fr: FR, es: ES };

export function roleWords(locale: Locale): RoleWords {
  return BY_LANGUAGE[locale] ?? EN;
}
