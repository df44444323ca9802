// Public API of the PDF layer: template detection, filling, and the built-in sample template.
export * from './field.js';
export { createPdfInspector, type DetectedTemplate, type PdfInspector, type PdfInspectorOptions } from './inspector.js';
export { createPdfRenderer, type PdfRenderer } from './renderer.js';
export { makeSampleTemplatePdf, type SampleTemplate } from './sample-template.js';
