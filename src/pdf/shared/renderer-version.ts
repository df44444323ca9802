// Bump on any change to what a rendering looks like (fonts, sizing, wrapping, layout); cached
// renderings of an older version are redrawn. Here, not in fill/, so the main thread can name the
// version without loading fill/'s fonts and pdf-lib (it only ever renders through the pool).
// 2: Korean and Chinese faces, shrink-to-fit, CJK line breaking, ToUnicode kept across documents.
// 3: values mixing scripts no one face covers are drawn in runs of several fonts (a word keeps one).
// 4: multiline text leaves room for the last line's descenders inside the padding.
// 5: right-to-left values in visual order (the Unicode Bidirectional Algorithm, bidi-layout.ts).
export const RENDERER_VERSION = '5';
