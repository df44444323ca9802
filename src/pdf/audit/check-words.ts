import type { Locale } from '../../lib/i18n/index.js';

// The audit trail's words for signer checks, signature meanings and replaced recipients (issue 38), in
// every language of the signing page: the type says so, and test/unit/signer-words.test.ts fails when
// one is missing or left in English.

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
  replaced: 'Earlier recipients',
  replacedBySender: '{who}, replaced by the sender on {time}',
  passedOn: '{who} passed it on on {time}',
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
  replaced: 'المستلمون السابقون',
  replacedBySender: '{who}، استبدله المرسِل في {time}',
  passedOn: 'أحاله {who} إلى غيره في {time}',
};

const WORDS: Record<Locale, CheckAuditWords> = {
  en: EN,
  ar: AR,
  cs: {
    meaning: 'Význam podpisu', email_code: 'Jednorázový kód e-mailem na {to}', sms_code: 'Jednorázový kód SMS zprávou na {to}', access_code: 'Přístupový kód předaný odesílatelem mimo systém',
    whenOpen: 'vyžádáno před otevřením dokumentu', whenSign: 'vyžádáno před otevřením dokumentu a znovu při podpisu', code_sent: 'Kód odeslán', verified: 'Ověřeno', failed: 'Chybný kód', locked: 'Zamčeno',
    purposeOpen: 'ověření při otevření', purposeSign: 'ověření při podpisu', sentTo: 'na {to}', lockedFor: 'odkaz zamčen na 15 minut', summary: 'Odeslané kódy: {sent}; chybné kódy: {failed}; zamčení: {locked}',
    replaced: 'Dřívější příjemci', replacedBySender: '{who}, nahrazen(a) odesílatelem {time}', passedOn: '{who} předal(a) dokument dál {time}',
  },
  da: {
    meaning: 'Underskriftens betydning', email_code: 'Engangskode via e-mail til {to}', sms_code: 'Engangskode via sms til {to}', access_code: 'Adgangskode givet af afsenderen uden for systemet',
    whenOpen: 'krævet før dokumentet blev åbnet', whenSign: 'krævet før dokumentet blev åbnet og igen ved underskrift', code_sent: 'Kode sendt', verified: 'Bekræftet', failed: 'Forkert kode', locked: 'Låst',
    purposeOpen: 'kontrol ved åbning', purposeSign: 'kontrol ved underskrift', sentTo: 'til {to}', lockedFor: 'link låst i 15 minutter', summary: 'Sendte koder: {sent}; forkerte koder: {failed}; låsninger: {locked}',
    replaced: 'Tidligere modtagere', replacedBySender: '{who}, erstattet af afsenderen {time}', passedOn: '{who} overdrog det {time}',
  },
  de: {
    meaning: 'Bedeutung der Unterschrift', email_code: 'Einmalcode per E-Mail an {to}', sms_code: 'Einmalcode per SMS an {to}', access_code: 'Zugangscode, vom Absender auf anderem Weg übergeben',
    whenOpen: 'verlangt vor dem Öffnen des Dokuments', whenSign: 'verlangt vor dem Öffnen des Dokuments und erneut beim Unterschreiben', code_sent: 'Code gesendet', verified: 'Bestätigt', failed: 'Falscher Code', locked: 'Gesperrt',
    purposeOpen: 'Prüfung beim Öffnen', purposeSign: 'Prüfung beim Unterschreiben', sentTo: 'an {to}', lockedFor: 'Link für 15 Minuten gesperrt', summary: 'Gesendete Codes: {sent}; falsche Codes: {failed}; Sperren: {locked}',
    replaced: 'Frühere Empfänger', replacedBySender: '{who}, vom Absender ersetzt am {time}', passedOn: '{who} hat es am {time} weitergegeben',
  },
  el: {
    meaning: 'Σημασία της υπογραφής', email_code: 'Κωδικός μίας χρήσης με email στο {to}', sms_code: 'Κωδικός μίας χρήσης με SMS στο {to}', access_code: 'Κωδικός πρόσβασης που έδωσε ο αποστολέας εκτός πλατφόρμας',
    whenOpen: 'ζητήθηκε πριν ανοίξει το έγγραφο', whenSign: 'ζητήθηκε πριν ανοίξει το έγγραφο και ξανά κατά την υπογραφή', code_sent: 'Στάλθηκε κωδικός', verified: 'Επαληθεύτηκε', failed: 'Λανθασμένος κωδικός', locked: 'Κλειδώθηκε',
    purposeOpen: 'έλεγχος στο άνοιγμα', purposeSign: 'έλεγχος στην υπογραφή', sentTo: 'στο {to}', lockedFor: 'ο σύνδεσμος κλειδώθηκε για 15 λεπτά', summary: 'Κωδικοί που στάλθηκαν: {sent}· λανθασμένοι κωδικοί: {failed}· κλειδώματα: {locked}',
    replaced: 'Προηγούμενοι παραλήπτες', replacedBySender: '{who}, αντικαταστάθηκε από τον αποστολέα στις {time}', passedOn: '{who} το ανέθεσε σε άλλον στις {time}',
  },
  es: {
    meaning: 'Significado de la firma', email_code: 'Código de un solo uso por correo electrónico a {to}', sms_code: 'Código de un solo uso por SMS a {to}', access_code: 'Código de acceso entregado por el remitente por otra vía',
    whenOpen: 'pedido antes de abrir el documento', whenSign: 'pedido antes de abrir el documento y de nuevo al firmar', code_sent: 'Código enviado', verified: 'Verificado', failed: 'Código incorrecto', locked: 'Bloqueado',
    purposeOpen: 'comprobación al abrir', purposeSign: 'comprobación al firmar', sentTo: 'a {to}', lockedFor: 'enlace bloqueado 15 minutos', summary: 'Códigos enviados: {sent}; códigos incorrectos: {failed}; bloqueos: {locked}',
    replaced: 'Destinatarios anteriores', replacedBySender: '{who}, sustituido por el remitente el {time}', passedOn: '{who} lo asignó a otra persona el {time}',
  },
  fi: {
    meaning: 'Allekirjoituksen merkitys', email_code: 'Kertakäyttökoodi sähköpostilla osoitteeseen {to}', sms_code: 'Kertakäyttökoodi tekstiviestillä numeroon {to}', access_code: 'Lähettäjän muuta kautta antama pääsykoodi',
    whenOpen: 'pyydetty ennen asiakirjan avaamista', whenSign: 'pyydetty ennen asiakirjan avaamista ja uudelleen allekirjoitettaessa', code_sent: 'Koodi lähetetty', verified: 'Vahvistettu', failed: 'Väärä koodi', locked: 'Lukittu',
    purposeOpen: 'tarkistus avattaessa', purposeSign: 'tarkistus allekirjoitettaessa', sentTo: 'kohteeseen {to}', lockedFor: 'linkki lukittu 15 minuutiksi', summary: 'Lähetetyt koodit: {sent}; väärät koodit: {failed}; lukitukset: {locked}',
    replaced: 'Aiemmat vastaanottajat', replacedBySender: '{who}, lähettäjän korvaama {time}', passedOn: '{who} siirsi sen toiselle {time}',
  },
  fr: {
    meaning: 'Signification de la signature', email_code: 'Code à usage unique par e-mail à {to}', sms_code: 'Code à usage unique par SMS au {to}', access_code: 'Code d’accès remis par l’expéditeur par un autre moyen',
    whenOpen: 'demandé avant l’ouverture du document', whenSign: 'demandé avant l’ouverture du document et de nouveau à la signature', code_sent: 'Code envoyé', verified: 'Vérifié', failed: 'Code incorrect', locked: 'Bloqué',
    purposeOpen: 'vérification à l’ouverture', purposeSign: 'vérification à la signature', sentTo: 'à {to}', lockedFor: 'lien bloqué pendant 15 minutes', summary: 'Codes envoyés : {sent} ; codes incorrects : {failed} ; blocages : {locked}',
    replaced: 'Destinataires précédents', replacedBySender: '{who}, remplacé par l’expéditeur le {time}', passedOn: '{who} l’a confié à quelqu’un d’autre le {time}',
  },
  he: {
    meaning: 'משמעות החתימה', email_code: 'קוד חד־פעמי בדוא״ל אל {to}', sms_code: 'קוד חד־פעמי בהודעת טקסט אל {to}', access_code: 'קוד גישה שמסר השולח מחוץ למערכת',
    whenOpen: 'נדרש לפני פתיחת המסמך', whenSign: 'נדרש לפני פתיחת המסמך ושוב בעת החתימה', code_sent: 'נשלח קוד', verified: 'אומת', failed: 'קוד שגוי', locked: 'ננעל',
    purposeOpen: 'בדיקה בפתיחה', purposeSign: 'בדיקה בחתימה', sentTo: 'אל {to}', lockedFor: 'הקישור ננעל ל-15 דקות', summary: 'קודים שנשלחו: {sent}; קודים שגויים: {failed}; נעילות: {locked}',
    replaced: 'נמענים קודמים', replacedBySender: '{who}, הוחלף על ידי השולח ב-{time}', passedOn: '{who} העביר אותו הלאה ב-{time}',
  },
  it: {
    meaning: 'Significato della firma', email_code: 'Codice monouso via e-mail a {to}', sms_code: 'Codice monouso via SMS al {to}', access_code: 'Codice di accesso consegnato dal mittente per altra via',
    whenOpen: 'richiesto prima dell’apertura del documento', whenSign: 'richiesto prima dell’apertura del documento e di nuovo alla firma', code_sent: 'Codice inviato', verified: 'Verificato', failed: 'Codice errato', locked: 'Bloccato',
    purposeOpen: 'verifica all’apertura', purposeSign: 'verifica alla firma', sentTo: 'a {to}', lockedFor: 'link bloccato per 15 minuti', summary: 'Codici inviati: {sent}; codici errati: {failed}; blocchi: {locked}',
    replaced: 'Destinatari precedenti', replacedBySender: '{who}, sostituito dal mittente il {time}', passedOn: '{who} l’ha assegnato a un’altra persona il {time}',
  },
  ja: {
    meaning: '署名の意味', email_code: '{to} へのメールによるワンタイムコード', sms_code: '{to} への SMS によるワンタイムコード', access_code: '送信者が別の手段で伝えたアクセスコード',
    whenOpen: '文書を開く前に要求', whenSign: '文書を開く前と署名時に要求', code_sent: 'コード送信', verified: '確認済み', failed: '誤ったコード', locked: 'ロック',
    purposeOpen: '開封時の確認', purposeSign: '署名時の確認', sentTo: '{to} へ', lockedFor: 'リンクを 15 分間ロック', summary: '送信したコード：{sent}、誤ったコード：{failed}、ロック：{locked}',
    replaced: '以前の受信者', replacedBySender: '{who}（{time} に送信者が変更）', passedOn: '{who} が {time} に別の人に割り当て',
  },
  ko: {
    meaning: '서명의 의미', email_code: '{to}(으)로 보낸 이메일 일회용 코드', sms_code: '{to}(으)로 보낸 문자 메시지 일회용 코드', access_code: '보낸 사람이 다른 경로로 전달한 액세스 코드',
    whenOpen: '문서를 열기 전에 요청됨', whenSign: '문서를 열기 전과 서명할 때 다시 요청됨', code_sent: '코드 보냄', verified: '확인됨', failed: '잘못된 코드', locked: '잠김',
    purposeOpen: '열 때 확인', purposeSign: '서명할 때 확인', sentTo: '{to}(으)로', lockedFor: '링크 15분 잠김', summary: '보낸 코드: {sent}, 잘못된 코드: {failed}, 잠금: {locked}',
    replaced: '이전 수신자', replacedBySender: '{who}, {time}에 보낸 사람이 교체함', passedOn: '{who}이(가) {time}에 다른 사람에게 넘김',
  },
  nb: {
    meaning: 'Signaturens betydning', email_code: 'Engangskode på e-post til {to}', sms_code: 'Engangskode på SMS til {to}', access_code: 'Tilgangskode gitt av avsenderen utenfor systemet',
    whenOpen: 'krevd før dokumentet ble åpnet', whenSign: 'krevd før dokumentet ble åpnet og igjen ved signering', code_sent: 'Kode sendt', verified: 'Bekreftet', failed: 'Feil kode', locked: 'Låst',
    purposeOpen: 'kontroll ved åpning', purposeSign: 'kontroll ved signering', sentTo: 'til {to}', lockedFor: 'lenken låst i 15 minutter', summary: 'Sendte koder: {sent}; feil koder: {failed}; låsinger: {locked}',
    replaced: 'Tidligere mottakere', replacedBySender: '{who}, erstattet av avsenderen {time}', passedOn: '{who} overførte det {time}',
  },
  nl: {
    meaning: 'Betekenis van de handtekening', email_code: 'Eenmalige code per e-mail naar {to}', sms_code: 'Eenmalige code per sms naar {to}', access_code: 'Toegangscode die de afzender via een ander kanaal gaf',
    whenOpen: 'gevraagd voordat het document openging', whenSign: 'gevraagd voordat het document openging en opnieuw bij het ondertekenen', code_sent: 'Code verstuurd', verified: 'Bevestigd', failed: 'Onjuiste code', locked: 'Geblokkeerd',
    purposeOpen: 'controle bij openen', purposeSign: 'controle bij ondertekenen', sentTo: 'naar {to}', lockedFor: 'link 15 minuten geblokkeerd', summary: 'Verstuurde codes: {sent}; onjuiste codes: {failed}; blokkeringen: {locked}',
    replaced: 'Eerdere ontvangers', replacedBySender: '{who}, vervangen door de afzender op {time}', passedOn: '{who} heeft het op {time} aan iemand anders toegewezen',
  },
  pl: {
    meaning: 'Znaczenie podpisu', email_code: 'Kod jednorazowy e-mailem na {to}', sms_code: 'Kod jednorazowy SMS-em na {to}', access_code: 'Kod dostępu przekazany przez nadawcę inną drogą',
    whenOpen: 'wymagany przed otwarciem dokumentu', whenSign: 'wymagany przed otwarciem dokumentu i ponownie przy podpisie', code_sent: 'Wysłano kod', verified: 'Potwierdzono', failed: 'Błędny kod', locked: 'Zablokowano',
    purposeOpen: 'weryfikacja przy otwarciu', purposeSign: 'weryfikacja przy podpisie', sentTo: 'na {to}', lockedFor: 'link zablokowany na 15 minut', summary: 'Wysłane kody: {sent}; błędne kody: {failed}; blokady: {locked}',
    replaced: 'Wcześniejsi odbiorcy', replacedBySender: '{who}, zastąpiony(-a) przez nadawcę {time}', passedOn: '{who} przekazał(a) dokument dalej {time}',
  },
  pt: {
    meaning: 'Significado da assinatura', email_code: 'Código de uso único por e-mail para {to}', sms_code: 'Código de uso único por SMS para {to}', access_code: 'Código de acesso entregue pelo remetente por outro meio',
    whenOpen: 'pedido antes de o documento ser aberto', whenSign: 'pedido antes de o documento ser aberto e de novo na assinatura', code_sent: 'Código enviado', verified: 'Verificado', failed: 'Código errado', locked: 'Bloqueado',
    purposeOpen: 'verificação na abertura', purposeSign: 'verificação na assinatura', sentTo: 'para {to}', lockedFor: 'link bloqueado por 15 minutos', summary: 'Códigos enviados: {sent}; códigos errados: {failed}; bloqueios: {locked}',
    replaced: 'Destinatários anteriores', replacedBySender: '{who}, substituído pelo remetente em {time}', passedOn: '{who} atribuiu a outra pessoa em {time}',
  },
  ru: {
    meaning: 'Значение подписи', email_code: 'Одноразовый код по электронной почте на {to}', sms_code: 'Одноразовый код по SMS на {to}', access_code: 'Код доступа, переданный отправителем другим способом',
    whenOpen: 'запрошен перед открытием документа', whenSign: 'запрошен перед открытием документа и снова при подписании', code_sent: 'Код отправлен', verified: 'Подтверждено', failed: 'Неверный код', locked: 'Заблокировано',
    purposeOpen: 'проверка при открытии', purposeSign: 'проверка при подписании', sentTo: 'на {to}', lockedFor: 'ссылка заблокирована на 15 минут', summary: 'Отправлено кодов: {sent}; неверных кодов: {failed}; блокировок: {locked}',
    replaced: 'Прежние получатели', replacedBySender: '{who}, заменён отправителем {time}', passedOn: '{who} передал(а) документ другому {time}',
  },
  sv: {
    meaning: 'Underskriftens innebörd', email_code: 'Engångskod via e-post till {to}', sms_code: 'Engångskod via sms till {to}', access_code: 'Åtkomstkod som avsändaren gav utanför systemet',
    whenOpen: 'krävdes innan dokumentet öppnades', whenSign: 'krävdes innan dokumentet öppnades och igen vid underskrift', code_sent: 'Kod skickad', verified: 'Bekräftad', failed: 'Fel kod', locked: 'Låst',
    purposeOpen: 'kontroll vid öppning', purposeSign: 'kontroll vid underskrift', sentTo: 'till {to}', lockedFor: 'länken låst i 15 minuter', summary: 'Skickade koder: {sent}; felaktiga koder: {failed}; låsningar: {locked}',
    replaced: 'Tidigare mottagare', replacedBySender: '{who}, ersatt av avsändaren {time}', passedOn: '{who} överlät det {time}',
  },
  tr: {
    meaning: 'İmzanın anlamı', email_code: '{to} adresine e-postayla tek kullanımlık kod', sms_code: '{to} numarasına SMS ile tek kullanımlık kod', access_code: 'Gönderenin başka bir yolla verdiği erişim kodu',
    whenOpen: 'belge açılmadan önce istendi', whenSign: 'belge açılmadan önce ve imzalarken yeniden istendi', code_sent: 'Kod gönderildi', verified: 'Doğrulandı', failed: 'Yanlış kod', locked: 'Kilitlendi',
    purposeOpen: 'açılışta denetim', purposeSign: 'imzada denetim', sentTo: '{to} hedefine', lockedFor: 'bağlantı 15 dakika kilitlendi', summary: 'Gönderilen kodlar: {sent}; yanlış kodlar: {failed}; kilitlenmeler: {locked}',
    replaced: 'Önceki alıcılar', replacedBySender: '{who}, {time} tarihinde gönderen tarafından değiştirildi', passedOn: '{who}, {time} tarihinde başka birine devretti',
  },
  uk: {
    meaning: 'Значення підпису', email_code: 'Одноразовий код електронною поштою на {to}', sms_code: 'Одноразовий код SMS-повідомленням на {to}', access_code: 'Код доступу, який відправник передав іншим способом',
    whenOpen: 'вимагався перед відкриттям документа', whenSign: 'вимагався перед відкриттям документа й знову під час підписання', code_sent: 'Код надіслано', verified: 'Підтверджено', failed: 'Неправильний код', locked: 'Заблоковано',
    purposeOpen: 'перевірка під час відкриття', purposeSign: 'перевірка під час підписання', sentTo: 'на {to}', lockedFor: 'посилання заблоковано на 15 хвилин', summary: 'Надіслано кодів: {sent}; неправильних кодів: {failed}; блокувань: {locked}',
    replaced: 'Попередні одержувачі', replacedBySender: '{who}, замінено відправником {time}', passedOn: '{who} передав(ла) документ іншій особі {time}',
  },
  zh: {
    meaning: '签名含义', email_code: '发送到 {to} 的一次性电子邮件验证码', sms_code: '发送到 {to} 的一次性短信验证码', access_code: '发送者通过其他途径提供的访问码',
    whenOpen: '在打开文档前要求', whenSign: '在打开文档前及签署时再次要求', code_sent: '已发送验证码', verified: '已验证', failed: '验证码错误', locked: '已锁定',
    purposeOpen: '打开时验证', purposeSign: '签署时验证', sentTo: '发送到 {to}', lockedFor: '链接锁定 15 分钟', summary: '已发送验证码：{sent}；错误验证码：{failed}；锁定次数：{locked}',
    replaced: '先前的收件人', replacedBySender: '{who}，于 {time} 被发送者替换', passedOn: '{who} 于 {time} 转交给他人',
  },
};

export function checkAuditWords(locale: Locale): CheckAuditWords {
  return WORDS[locale];
}

/** Every language's words (the completeness test reads them). */
export const CHECK_AUDIT_WORDS: Readonly<Record<Locale, CheckAuditWords>> = WORDS;
