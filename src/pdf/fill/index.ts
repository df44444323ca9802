// The fill area: drawing values into a template, with the text layout and fonts that takes.
export { createPdfRenderer, fillDocument, loadTemplate, type PdfRenderer } from './renderer.js';
// Fonts by glyph coverage, for other areas that draw text in any script (seal's audit trail).
export { DocumentFonts, isWinAnsi, rememberingWidths, type HanStyle } from './fonts.js';
export type { ValueFont } from './value-font.js';
// One line of text in any script, laid out right to left where it must be (seal's signature captions).
export { drawFlatField, drawLine } from './draw-flat.js';
