import type { Channel, CheckPurpose } from '../../../db/tables.js';
import type { ComposedMessage } from '../../sending/compose-message.js';
import { clip, oneLine, renderEmail } from '../../sending/message-layout.js';

// The message that carries a one-time code (kind `auth_code`). The code is in the message and nowhere
// else: not in a URL (the message has no link), not in a log line, not in an event.

/** `purpose`: the check at opening, or (`when: sign`) the one again at Finish. */
export function composeCheckCode(m: { channel: Channel; accountName: string; formName: string; code: string; minutes: number; purpose: CheckPurpose }): ComposedMessage {
  const act = m.purpose === 'sign' ? 'sign' : 'open';
  const account = oneLine(m.accountName);
  const form = oneLine(m.formName);
  if (m.channel === 'sms') return { channel: 'sms', text: `${m.code} is your code to ${act} "${clip(form, 60)}" from ${clip(account, 40)}. It works for ${m.minutes} minutes. Do not share it.` };
  const { text, html } = renderEmail({
    account,
    heading: `Your code: ${m.code}`,
    greeting: null,
    paragraphs: [`Enter ${m.code} on the signing page of "${form}" to confirm it is you${m.purpose === 'sign' ? ' and finish signing' : ''}.`, `The code works once, for ${m.minutes} minutes. Nobody from ${account} or Formsign will ask you for it.`],
    footer: `You got this because someone opened a signing link of ${account} sent to this address. If it was not you, ignore this message.`,
  });
  return { channel: 'email', subject: clip(`${m.code} is your code for "${form}"`, 200), text, html };
}
