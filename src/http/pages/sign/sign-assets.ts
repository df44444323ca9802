import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { readPageScript } from '../page-scripts.js';
import { setSecurityHeaders } from '../security-headers.js';
import { StaticAsset } from '../static-asset.js';

// The signing page's scripts, styles and fonts, all served from this origin: pdf.js and its worker,
// signature_pad (its ES module), the script font for typed signatures, and the page's own script and
// stylesheet. Read from node_modules as installed, so `npm start` needs no build step.

const require = createRequire(import.meta.url);
const DIR = '/assets/sign/';

function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

function moduleFile(file: string, base: string, ext: string, contentType: string): StaticAsset {
  return new StaticAsset(DIR, base, ext, contentType, () => fs.readFileSync(file));
}

const JS = 'text/javascript; charset=utf-8';
const PDFJS = packageDir('pdfjs-dist');
// signature_pad's exports map names no package.json; its entry sits in dist/ beside the ES module.
const SIGNATURE_PAD = path.dirname(require.resolve('signature_pad'));
const SCRIPT_FONT = path.join(packageDir('@expo-google-fonts/dancing-script'), '400Regular', 'DancingScript_400Regular.ttf');
const here = (file: string): string => fileURLToPath(new URL(`./assets/${file}`, import.meta.url));
/** One of the page's own scripts (assets/<name>.ts, compiled for the browser: page-scripts.js). */
const pageScript = (name: string): StaticAsset => new StaticAsset(DIR, name, 'js', JS, () => readPageScript(new URL(`./assets/${name}.js`, import.meta.url)));
// The value rules the server checks with, loaded by the page as they are (one definition, two checks).
const VALUE_RULES = fileURLToPath(new URL('../../../domain/forms/value-rules.js', import.meta.url));
// Conditions and formulas (issue 41): the server's own evaluator, loaded only by forms that have them.
const FIELD_LOGIC = fileURLToPath(new URL('../../../domain/forms/field-logic.js', import.meta.url));

export const SIGN_ASSETS = {
  pdfjs: moduleFile(path.join(PDFJS, 'build', 'pdf.min.mjs'), 'pdf.min', 'mjs', JS),
  pdfjsWorker: moduleFile(path.join(PDFJS, 'build', 'pdf.worker.min.mjs'), 'pdf.worker.min', 'mjs', JS),
  signaturePad: moduleFile(path.join(SIGNATURE_PAD, 'signature_pad.min.js'), 'signature_pad.min', 'js', JS),
  script: pageScript('sign'),
  valueRules: moduleFile(VALUE_RULES, 'value-rules', 'js', JS),
  fieldLogic: moduleFile(FIELD_LOGIC, 'field-logic', 'js', JS),
  waitScript: pageScript('sign-wait'),
  // Files the signer attaches (issue 41): loaded only by pages with an attachment field.
  attachments: pageScript('attachments'),
  localTime: pageScript('sign-local-time'),
  // Embedded signing: messages to an allowed parent frame (loaded only where origins are allowed).
  embedBridge: pageScript('embed-bridge'),
  style: moduleFile(here('sign.css'), 'sign', 'css', 'text/css; charset=utf-8'),
  // After sending (issue #23): the "Decline to sign" dialog.
  declineScript: pageScript('decline'),
  // Signer checks (issue 38): the code screen.
  checkScript: pageScript('check'),
  // Issue 38 item 5: "Not me? Assign to someone else" (its own page, reassign-html.ts).
  reassignScript: pageScript('reassign'),
  // Progress on the server (issue 43): drafts saved as the signer types, and "Finish later".
  draftScript: pageScript('draft'),
  // Compact live errors (issue 43): "2 left: <label> → Go" after Finish, the list on request.
  missingBar: pageScript('missing-bar'),
  // Guided mode on a narrow screen (issue 43): one field at a time, the document zoomed to it.
  guided: pageScript('guided'),
  // The actions menu at the top (issue 43): Decline, Finish later, Download, Assign, Help.
  actionsMenu: pageScript('actions-menu'),
  // Adopting a signature (issue 43 item 7): styles, initials, uploads; loaded by the page's script.
  adoptSignature: pageScript('adopt-signature'),
  // Recipient roles (issue 42): an approver's "Approve".
  approveScript: pageScript('approve'),
} as const;

const versionOf = (dir: string): string => (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
/** A package's folder; the @embedpdf font packages export only their index, whose folder is dist/. */
function fontDir(pkg: string): string {
  try {
    return packageDir(pkg);
  } catch {
    return path.join(path.dirname(require.resolve(pkg)), '..');
  }
}

/**
 * The fonts a typed signature is drawn in, by the script typed: Dancing Script covers Latin only;
 * DejaVu Serif Italic adds Cyrillic and Greek, DejaVu Sans Arabic and Hebrew, Noto Sans JP / SC / KR
 * Japanese, Chinese and Korean. The CJK files are megabytes each, so they are neither read into memory
 * nor hashed: each is streamed from the installed package, under its package's version for caching,
 * and the page loads one only when the name typed needs it.
 */
const FONT_FILES = {
  script: SCRIPT_FONT,
  serifItalic: path.join(fontDir('dejavu-fonts-ttf'), 'ttf', 'DejaVuSerif-Italic.ttf'),
  sans: path.join(fontDir('dejavu-fonts-ttf'), 'ttf', 'DejaVuSans.ttf'),
  jp: path.join(fontDir('@expo-google-fonts/noto-sans-jp'), '400Regular', 'NotoSansJP_400Regular.ttf'),
  sc: path.join(fontDir('@embedpdf/fonts-sc'), 'fonts', 'NotoSansHans-Regular.otf'),
  kr: path.join(fontDir('@embedpdf/fonts-kr'), 'fonts', 'NotoSansKR-Regular.otf'),
} as const;

const FONT_PACKAGES = ['@expo-google-fonts/dancing-script', 'dejavu-fonts-ttf', '@expo-google-fonts/noto-sans-jp', '@embedpdf/fonts-sc', '@embedpdf/fonts-kr'];
const FONT_DIR = `${DIR}fonts-${FONT_PACKAGES.map((p) => versionOf(fontDir(p))).join('-')}/`;

/** Each typed-signature font's address, by its key (the page's config carries them). */
export const SIGN_FONTS: Readonly<Record<keyof typeof FONT_FILES, string>> = Object.fromEntries(
  Object.entries(FONT_FILES).map(([key, file]) => [key, `${FONT_DIR}${key}${path.extname(file)}`]),
) as Record<keyof typeof FONT_FILES, string>;

export function registerSignatureFonts(app: FastifyInstance): void {
  for (const [key, file] of Object.entries(FONT_FILES) as [keyof typeof FONT_FILES, string][]) {
    const type = file.endsWith('.otf') ? 'font/otf' : 'font/ttf';
    app.get(SIGN_FONTS[key], (_req, reply) =>
      setSecurityHeaders(reply).header('Cache-Control', 'public, max-age=31536000, immutable').type(type).send(fs.createReadStream(file)),
    );
  }
}

/**
 * pdf.js asks for the standard fonts (the 14 base fonts PDFs use without embedding) by their file
 * names under one address, so these are served by name, under the package's version for caching.
 */
export const STANDARD_FONTS_URL = `${DIR}pdfjs-${(JSON.parse(fs.readFileSync(path.join(PDFJS, 'package.json'), 'utf8')) as { version: string }).version}/standard_fonts/`;

export function registerStandardFonts(app: FastifyInstance): void {
  const dir = path.join(PDFJS, 'standard_fonts');
  for (const file of fs.readdirSync(dir)) {
    if (!/\.(pfb|ttf)$/.test(file)) continue;
    let body: Buffer | undefined;
    app.get(`${STANDARD_FONTS_URL}${file}`, (_req, reply) => {
      body ??= fs.readFileSync(path.join(dir, file));
      return setSecurityHeaders(reply).header('Cache-Control', 'public, max-age=31536000, immutable').type('application/octet-stream').send(body);
    });
  }
}
