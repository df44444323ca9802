import type { Locale } from '../../../lib/i18n/index.js';

// The words of signer checks and signature meanings (issue 38). English and Arabic for now; the other languages show English
// until their catalogues (lib/i18n) take these keys.

const EN = {
  title: 'Confirm it is you',
  leadEmail: 'To open this document, enter the 6-digit code we send to {to}.',
  leadSms: 'To open this document, enter the 6-digit code we send by text message to {to}.',
  leadAccess: 'To open this document, enter the access code the sender gave you.',
  leadFinish: 'To finish signing, confirm it is you once more.',
  leadFinishAccess: 'Enter the access code the sender gave you.',
  leadFinishEmail: 'Enter the 6-digit code we send to {to}.',
  leadFinishSms: 'Enter the 6-digit code we send by text message to {to}.',
  cancel: 'Cancel',
  send: 'Send the code',
  resend: 'Send a new code',
  sending: 'Sending…',
  sent: 'We sent a code to {to}. It works for 10 minutes.',
  codeLabel: 'Code',
  accessLabel: 'Access code',
  confirm: 'Confirm',
  checking: 'Checking…',
  wrong: 'That code is not right, or it has expired. Tries left: {left}.',
  locked: 'Too many wrong codes. This link is locked for {minutes} more minutes; try again after that.',
  failed: 'That did not work (HTTP {status}). Please try again.',
  network: 'That did not work. Check your connection and try again.',
  meaning: 'By signing, you sign as: {meaning}. This is printed beside your signature with your name and the time.',
};

export type CheckWords = typeof EN;

const AR: CheckWords = {
  title: 'أكِّد هويتك',
  leadEmail: 'لفتح هذا المستند، أدخل الرمز المكوّن من 6 أرقام الذي نرسله إلى {to}.',
  leadSms: 'لفتح هذا المستند، أدخل الرمز المكوّن من 6 أرقام الذي نرسله برسالة نصية إلى {to}.',
  leadAccess: 'لفتح هذا المستند، أدخل رمز الوصول الذي أعطاك إياه المرسِل.',
  leadFinish: 'لإكمال التوقيع، أكِّد هويتك مرة أخرى.',
  leadFinishAccess: 'أدخل رمز الوصول الذي أعطاك إياه المرسِل.',
  leadFinishEmail: 'أدخل الرمز المكوّن من 6 أرقام الذي نرسله إلى {to}.',
  leadFinishSms: 'أدخل الرمز المكوّن من 6 أرقام الذي نرسله برسالة نصية إلى {to}.',
  cancel: 'إلغاء',
  send: 'أرسل الرمز',
  resend: 'أرسل رمزًا جديدًا',
  sending: 'جارٍ الإرسال…',
  sent: 'أرسلنا رمزًا إلى {to}. يعمل لمدة 10 دقائق.',
  codeLabel: 'الرمز',
  accessLabel: 'رمز الوصول',
  confirm: 'تأكيد',
  checking: 'جارٍ التحقق…',
  wrong: 'هذا الرمز غير صحيح أو انتهت صلاحيته. المحاولات المتبقية: {left}.',
  locked: 'رموز خاطئة كثيرة. هذا الرابط مقفل لمدة {minutes} دقيقة أخرى؛ حاول مرة أخرى بعد ذلك.',
  failed: 'لم ينجح ذلك (HTTP {status}). يُرجى المحاولة مرة أخرى.',
  network: 'لم ينجح ذلك. تحقّق من اتصالك وحاول مرة أخرى.',
  meaning: 'بالتوقيع، أنت توقّع بصفة: {meaning}. يُطبع هذا بجانب توقيعك مع اسمك والوقت.',
};

export function checkWords(locale: Locale): CheckWords {
  return locale === 'ar' ? AR : EN;
}
