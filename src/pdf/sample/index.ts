// The built-in sample template, made by our own code for demos and first-run setups.
export { makeSampleTemplatePdf, type SampleTemplate } from './sample-template.js';
