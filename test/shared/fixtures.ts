import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

// test/fixtures/pdfs, inside the repository (public forms; see SOURCES.md there).
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/pdfs/', import.meta.url));

export function fixture(name: string): Buffer {
  return fs.readFileSync(`${FIXTURES_DIR}${name}`);
}

/** SOURCES.md's counts, less push buttons (not data fields: skipped on import with a warning). */
export const FIXTURE_FIELDS: Record<string, { total: number; types: Record<string, number>; pages: number; warning?: RegExp }> = {
  'irs_f1040_2019_xfa_hybrid.pdf': { total: 116, types: { text: 82, checkbox: 34 }, pages: 2, warning: /XFA/ },
  'us_state_ds11_passport_application.pdf': { total: 81, types: { text: 65, checkbox: 16 }, pages: 6, warning: /button/i },
  'osha_form_301_injury_report.pdf': { total: 31, types: { text: 26, radio: 5 }, pages: 1 },
  'cdc_icar_ltc_assessment.pdf': { total: 162, types: { text: 88, checkbox: 54, radio: 20 }, pages: 6 },
  'interactive_form_example_indesign.pdf': { total: 28, types: { text: 17, checkbox: 9, radio: 1, signature: 1 }, pages: 1, warning: /button/i },
  'jlpt_application_2025_ja.pdf': { total: 72, types: { checkbox: 45, select: 15, text: 11, radio: 1 }, pages: 6 },
  'openoffice_form_example.pdf': { total: 12, types: { text: 4, checkbox: 4, select: 3, radio: 1 }, pages: 1 },
  'scribus_membership_application_de.pdf': { total: 15, types: { text: 10, checkbox: 5 }, pages: 1 },
  'lima_oxygen_prescription_fr.pdf': { total: 37, types: { text: 24, checkbox: 11, select: 2 }, pages: 2, warning: /button/i },
  'uscis_i90_encrypted_xfa.pdf': { total: 195, types: { text: 111, checkbox: 78, select: 6 }, pages: 7, warning: /XFA/ },
};
