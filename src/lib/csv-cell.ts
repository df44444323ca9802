// One cell of a CSV the dashboard offers for download (web/src/pages/BulkSendPage.tsx: the bulk send's results and blank CSV).

/**
 * Text a spreadsheet would run as a formula (OWASP "CSV injection"): a cell starting with = + - @, a tab
 * or a carriage return. Such a cell gets a leading ' so it is shown as the text it is.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A CSV cell: defused when it reads as a formula, then quoted when it holds a separator, a quote or a line break (RFC 4180). */
export function csvCell(value: string | number | null | undefined): string {
  const raw = value === null || value === undefined ? '' : String(value);
  const text = FORMULA_START.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
