// The generate area: the PDF of a form generated from a description (layout.ts).
export { layoutForm, type LaidOutForm, type LayoutField, type LayoutRequest } from './layout.js';
