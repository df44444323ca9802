import { renderSignatureStyles, type SignatureStyles } from '../../pdf/index.js';
import { AppError } from '../errors.js';
import { refuseClosedLink } from '../lifecycle/closed-links.js';
import type { SigningLink } from './resolve-link.js';

// "Adopt a signature" (issue 43 item 7): the typed name in its script's three styles, as outlines the
// signing page paints (src/pdf/signature-style says why on the server). Only while the link can be
// signed: the styles serve nothing else, and a closed link answers nothing more than it must.

/** Names drawn a minute for one signing link (the route's window): typing a name and its initials asks a few. */
export const STYLE_REQUESTS_PER_MINUTE = 60;
/** Letters a typed name may have: the dialog's input allows 60; a little room for combining marks. */
export const MAX_TYPED_NAME = 80;
// Controls and line breaks: nothing a name is written with. Bidi isolates and joiners (Cf) are kept.
const CONTROL = /\p{Cc}/u;
// Lone surrogates, unassigned code points and private-use ones: no face draws them, so they are refused
// before any face is parsed (else each such name would load every fallback face, CJK ones included).
const UNDRAWABLE = /[\p{Cs}\p{Cn}\p{Co}]/u;

/** `{text}` → the styles of that name; `parameter_invalid` on `text` when it is not one. */
export async function signatureStylesFor(link: SigningLink, body: Record<string, unknown>): Promise<SignatureStyles> {
  refuseClosedLink(link);
  const { text } = body;
  if (typeof text !== 'string') throw new AppError('parameter_invalid', 'text must be the name (or initials) to draw, as a string.', 'text');
  const name = text.trim().normalize('NFC');
  if (name === '') throw new AppError('parameter_invalid', 'text must not be empty: type the name to draw.', 'text');
  if ([...name].length > MAX_TYPED_NAME) throw new AppError('parameter_invalid', `text is at most ${MAX_TYPED_NAME} characters.`, 'text');
  if (CONTROL.test(name)) throw new AppError('parameter_invalid', 'text must be one line, without control characters.', 'text');
  if (UNDRAWABLE.test(name)) throw new AppError('parameter_invalid', 'text has characters no typeface draws (unassigned, private-use or a lone surrogate).', 'text');
  return renderSignatureStyles(name);
}
