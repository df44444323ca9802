export { devSmsSender, SmsGatewayError, type OutgoingSms, type SentSms, type SmsSender } from './sms-sender.js';
export { createTwilioSmsSender, type TwilioOptions } from './twilio-sms-sender.js';
