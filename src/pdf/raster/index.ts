// A page drawn as a picture (issue 43 item 4: the signing page's first page before pdf.js loads).
export { pageImage } from './page-image.js';
