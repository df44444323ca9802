import { renderSignatureStyles, type SignatureStyles } from '../../pdf/index.js';
import { AppError } from '../errors.js';
import { refuseClosedLink } from '../lifecycle/closed-links.js';
import type { SigningLink } from './resolve-link.js';

// "Adopt a signature" (issue 43 item 7): the typed name in its script's three styles, as outlines the
// signing page paints (src/pdf/signature-style says why on the server). Only while the link can be
// signed: the styles serve nothing else, and a closed link answers nothing more than it must.

/** Letters a typed name may have: the dialog's input allows 60; a little room for combining marks. */
export const MAX_TYPED_NAME = 80;
// Controls and line breaks: nothing a name is written with. Bidi isolates and joiners (Cf) are kept.
const CONTROL = /\p{Cc}/u;

/** `{text}` → the styles of that name; `parameter_invalid` on `text` when it is not one. */
export async function signatureStylesFor(link: SigningLink, body: Record<string, unknown>): Promise<SignatureStyles> {
  refuseClosedLink(link);
  const { text } = body;
  if (typeof text !== 'string') throw new AppError('parameter_invalid', 'text must be the name (or initials) to draw, as a string.', 'text');
  const name = text.trim().normalize('NFC');
  if (name === '') throw new AppError('parameter_invalid', 'text must not be empty: type the name to draw.', 'text');
  if ([...name].length > MAX_TYPED_NAME) throw new AppError('parameter_invalid', `text is at most ${MAX_TYPED_NAME} characters.`, 'text');
  if (CONTROL.test(name)) throw new AppError('parameter_invalid', 'text must be one line, without control characters.', 'text');
  return renderSignatureStyles(name);
}
