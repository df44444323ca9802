// The inspect area: reading an upload into a template (pages, fields, warnings, the bytes to store).
export { detectTemplate, type DetectedTemplate } from './detect-template.js';
