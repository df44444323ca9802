import type { Locale } from '../../lib/i18n/index.js';

// The audit trail's words for signer checks and signature meanings (issue 38). English and Arabic for
// now, like the code screen's (http/pages/sign/check-words.ts); the other languages show English until
// their catalogues (lib/i18n) take these keys.

const EN = {
  meaning: 'Meaning of signature',
  email_code: 'One-time code by e-mail to {to}',
  sms_code: 'One-time code by text message to {to}',
  access_code: 'Access code given by the sender out of band',
  whenOpen: 'asked before the document opened',
  whenSign: 'asked before the document opened and again at signing',
  code_sent: 'Code sent',
  verified: 'Verified',
  failed: 'Wrong code',
  locked: 'Locked',
  purposeOpen: 'check at opening',
  purposeSign: 'check at signing',
  sentTo: 'to {to}',
  lockedFor: 'link locked for 15 minutes',
  summary: 'Codes sent: {sent}; wrong codes: {failed}; lockouts: {locked}',
};

export type CheckAuditWords = typeof EN;

const AR: CheckAuditWords = {
  meaning: 'معنى التوقيع',
  email_code: 'رمز لمرة واحدة بالبريد الإلكتروني إلى {to}',
  sms_code: 'رمز لمرة واحدة برسالة نصية إلى {to}',
  access_code: 'رمز وصول أعطاه المرسِل خارج المنصة',
  whenOpen: 'طُلب قبل فتح المستند',
  whenSign: 'طُلب قبل فتح المستند ومرة أخرى عند التوقيع',
  code_sent: 'أُرسل رمز',
  verified: 'تم التحقق',
  failed: 'رمز خاطئ',
  locked: 'قُفل',
  purposeOpen: 'تحقق عند الفتح',
  purposeSign: 'تحقق عند التوقيع',
  sentTo: 'إلى {to}',
  lockedFor: 'قُفل الرابط لمدة 15 دقيقة',
  summary: 'الرموز المرسلة: {sent}؛ الرموز الخاطئة: {failed}؛ مرات القفل: {locked}',
};

export function checkAuditWords(locale: Locale): CheckAuditWords {
  return locale === 'ar' ? AR : EN;
}
