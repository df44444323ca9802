export { devEmailSender, type EmailAttachment, type EmailSender, type OutgoingEmail, type SentEmail } from './email-sender.js';
export { createSmtpEmailSender, type SmtpOptions } from './smtp-email-sender.js';
