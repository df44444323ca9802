// The page recipients sign on when there are more of them than the template has signer slots: each
// extra signer's signature in a box over a line, with their name, slot and time of signing.
import type { PDFDocument } from '@cantoo/pdf-lib';
import type { DocumentFonts } from '../fill/index.js';
import type { Locale } from '../../lib/i18n/index.js';
import { formatTime, header } from './audit-page.js';
import { fitCentred } from './fit.js';
import { COLOURS, PageWriter } from './page-writer.js';

/** `meaning` (issue 38): what the signature means, printed under the time when the send gave one. */
export interface ExtraSigner { name: string; signer: number; png: Uint8Array; signedAt: string; meaning?: string | null }

const COLUMNS = 2;
const GAP = 24;
const BOX_HEIGHT = 84;
const CARD_HEIGHT = BOX_HEIGHT + 58;

export async function appendSignaturePage(doc: PDFDocument, fonts: DocumentFonts, signers: readonly ExtraSigner[], locale: Locale = 'en'): Promise<void> {
  if (signers.length === 0) return;
  const w = await PageWriter.create(doc, fonts, locale, (pw) => header(pw, pw.t('audit.extraTitle'), pw.t('audit.extraSubtitle')));
  const cardWidth = (w.contentWidth - GAP * (COLUMNS - 1)) / COLUMNS;
  for (let i = 0; i < signers.length; i += COLUMNS) {
    await w.need(CARD_HEIGHT);
    const top = w.y + 10;
    for (const [col, s] of signers.slice(i, i + COLUMNS).entries()) {
      const x = w.margin + col * (cardWidth + GAP);
      const image = await doc.embedPng(s.png);
      const box = { x, y: 0, width: cardWidth, height: BOX_HEIGHT };
      const fit = fitCentred(image, box, 8);
      w.image(image, { x: fit.x, y: top - BOX_HEIGHT + (BOX_HEIGHT - fit.height) / 2, width: fit.width, height: fit.height });
      w.rule(top - BOX_HEIGHT, COLOURS.ink, x, x + cardWidth);
      const name = await w.block(s.name || w.t('audit.noName'), cardWidth, 10.5, 'value');
      w.draw({ ...name, lines: name.lines.slice(0, 1) }, x, COLOURS.ink, top - BOX_HEIGHT - 16);
      w.draw(await w.block(w.t('audit.extraSigned', { number: s.signer, time: formatTime(s.signedAt) }), cardWidth, 8.5, 'regular'), x, COLOURS.muted, top - BOX_HEIGHT - 30);
      if (s.meaning) {
        const meaning = await w.block(s.meaning, cardWidth, 8.5, 'value');
        w.draw({ ...meaning, lines: meaning.lines.slice(0, 1) }, x, COLOURS.ink, top - BOX_HEIGHT - 43);
      }
    }
    w.y -= CARD_HEIGHT;
  }
}
