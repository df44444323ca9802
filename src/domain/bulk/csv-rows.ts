import { parse } from 'csv-parse/sync';
import type { FieldDef } from '../../pdf/field.js';
import { AppError } from '../errors.js';
import { checkRowCount } from './bulk-rules.js';

// A bulk send's CSV (issue 42): a header line, then one line per form. Columns `name` (the form's
// name), `prefill.<field>` and `recipient.<n>.email|phone|name|locale` (n from 1). Each line becomes a
// row of the JSON body's shape, so both bodies are checked by the same code (create-bulk-send.ts).

const RECIPIENT_COLUMN = /^recipient\.(\d{1,2})\.(email|phone|name|locale)$/;
type RecipientKey = 'email' | 'phone' | 'name' | 'locale';
const CHECKED = new Map([['true', true], ['yes', true], ['1', true], ['false', false], ['no', false], ['0', false]]);

type Column = { kind: 'name' } | { kind: 'prefill'; field: string } | { kind: 'recipient'; n: number; key: RecipientKey };

function column(header: string, at: number): Column {
  const h = header.trim();
  if (h === 'name') return { kind: 'name' };
  if (h.startsWith('prefill.') && h.length > 'prefill.'.length) return { kind: 'prefill', field: h.slice('prefill.'.length) };
  const m = RECIPIENT_COLUMN.exec(h);
  if (m && Number(m[1]) >= 1 && Number(m[1]) <= 20) return { kind: 'recipient', n: Number(m[1]), key: m[2] as RecipientKey };
  throw new AppError(
    'parameter_invalid',
    `Column ${at + 1} of the CSV's header, '${h}', is not one this endpoint reads: the columns are name, prefill.<field> and recipient.<n>.email, .phone, .name or .locale (n from 1 to 20).`,
    'file',
  );
}

/**
 * A CSV cell as a prefill value. Cells are text; a checkbox field takes true/false (also yes/no, 1/0)
 * as the JSON body's boolean, and every other type takes the text, which the field's own rule checks
 * (a number field reads "12.5" as 12.5). An empty cell is no value.
 */
function cellValue(field: FieldDef | undefined, cell: string): unknown {
  if (field?.type === 'checkbox') return CHECKED.get(cell.toLowerCase()) ?? cell;
  return cell;
}

/**
 * The rows of a CSV upload, in the JSON body's row shape: `{prefill, recipients, name?}`. A recipient
 * with an e-mail address goes by e-mail, one with only a phone number by SMS; the columns of a
 * recipient left all empty on a line add no recipient there. A CSV that cannot be read, or has an
 * unknown column, is the whole request's 400 (`param` `file`), since no line can be trusted then.
 */
export function rowsOfCsv(text: string, fields: ReadonlyMap<string, FieldDef>, maxRows: number): unknown[] {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: false, trim: true }) as string[][];
  } catch (err) {
    throw new AppError('parameter_invalid', `The CSV cannot be read: ${(err as Error).message}`, 'file');
  }
  const [header, ...lines] = records;
  if (!header) throw new AppError('parameter_missing', 'The CSV is empty: it needs a header line and one line per form.', 'file');
  const columns = header.map(column);
  checkRowCount(lines.length, maxRows);
  return lines.map((cells) => {
    const prefill: Record<string, unknown> = {};
    const recipients = new Map<number, Partial<Record<RecipientKey, string>>>();
    let name: string | undefined;
    columns.forEach((c, i) => {
      const cell = cells[i] ?? '';
      if (cell === '') return;
      if (c.kind === 'name') name = cell;
      else if (c.kind === 'prefill') prefill[c.field] = cellValue(fields.get(c.field), cell);
      else recipients.set(c.n, { ...recipients.get(c.n), [c.key]: cell });
    });
    const list = [...recipients.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, r]) => ({ channel: r.email === undefined && r.phone !== undefined ? 'sms' : 'email', ...r }));
    return { prefill, recipients: list, ...(name !== undefined ? { name } : {}) };
  });
}
