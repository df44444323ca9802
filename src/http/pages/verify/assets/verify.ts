// The /verify page: reads the chosen or dropped PDF, posts its bytes to POST /verify (this origin
// only) and shows the answer. Everything the answer carries is shown as text, never as markup.
import type { components } from '../../../../generated/api.js';

type Verification = components['schemas']['Verification'];
type Fact = [string, string | Node];

const MAX_BYTES = 20 * 1024 * 1024;
const byId = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
const drop = byId('drop');
const input = byId<HTMLInputElement>('file');
const status = byId('status');
const result = byId('result');

function say(text: string, isError = false): void {
  status.textContent = text;
  status.classList.toggle('error', isError);
}

function el(tag: string, text?: string, cls?: string): HTMLElement {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function facts(list: HTMLElement, pairs: Fact[]): void {
  list.replaceChildren();
  for (const [term, value] of pairs) {
    list.append(el('dt', term));
    const dd = el('dd');
    if (value instanceof Node) dd.append(value); else dd.textContent = value;
    list.append(dd);
  }
}

const yesNo = (b: boolean, good = true): HTMLElement => el('span', b ? 'Yes' : 'No', `tag ${b === good ? 'good' : 'bad'}`);
const time = (iso: string | null | undefined): string => (iso ? new Date(iso).toUTCString() : 'not stated');

function show(v: Verification, name: string): void {
  // verdict.js, loaded before this script.
  const [title, detail, good] = globalThis.formsignVerdict(v);
  const verdict = byId('verdict');
  verdict.textContent = title;
  verdict.className = `verdict ${good ? 'good' : 'bad'}`;
  byId('verdict-detail').textContent = `${name}: ${detail}`;
  facts(byId('facts'), [
    ['Issued by this service', yesNo(v.issued_by_this_service)],
    ...(v.form_id ? [['Form', v.form_id] satisfies Fact] : []),
    ['Intact', yesNo(v.intact)],
    ['Modified after signing', yesNo(v.modified_after_signing, false)],
    ['Long-term validation', `DSS ${v.ltv.dss ? 'yes' : 'no'}, OCSP ${v.ltv.ocsp ? 'yes' : 'no'}, CRL ${v.ltv.crl ? 'yes' : 'no'}`],
  ]);
  const list = byId('signatures');
  list.replaceChildren();
  if (v.signatures.length === 0) list.append(el('li', 'None.'));
  for (const s of v.signatures) {
    const li = el('li');
    const head = el('strong', `${s.kind === 'document_timestamp' ? 'Document timestamp' : 'Signature'} “${s.field}” `);
    li.append(head, el('span', s.valid ? 'valid' : 'not valid', `tag ${s.valid ? 'good' : 'bad'}`));
    const dl = el('dl');
    const rows: Fact[] = [];
    if (s.signer_name) rows.push(['Signer', s.signer_name]);
    rows.push(['Signed at (claimed)', time(s.signed_at)]);
    rows.push(['Covers the whole document', yesNo(s.covers_whole_document)]);
    if (s.certificate) {
      rows.push(['Certificate', s.certificate.subject]);
      rows.push(['Issued by', `${s.certificate.issuer}${s.certificate.self_signed ? ' (self-signed)' : ''}`]);
      rows.push(['This service’s certificate', yesNo(s.certificate.trusted_by_service)]);
    }
    if (s.timestamp) rows.push(['Timestamp', `${time(s.timestamp.time)} by ${s.timestamp.tsa}: ${s.timestamp.valid ? 'valid' : 'not valid'}`]);
    if (s.reason) rows.push(['Why not valid', s.reason]);
    rows.push(['Changed after it', s.changes.length === 0 ? 'Nothing' : `${s.modification_level}: ${[...new Set(s.changes.map(globalThis.formsignDescribeChange))].join('; ')}`]);
    facts(dl, rows);
    li.append(dl);
    list.append(li);
  }
  result.hidden = false;
}

async function check(file: File | undefined): Promise<void> {
  result.hidden = true;
  if (!file) return;
  if (file.size > MAX_BYTES) return say('This file is larger than 20 MB; the verifier takes at most 20 MB.', true);
  say(`Checking ${file.name}…`);
  try {
    const res = await fetch('/verify', { method: 'POST', headers: { 'content-type': 'application/pdf', 'x-formsign-verify': '1' }, body: file });
    const body = (await res.json().catch(() => null)) as (Verification & { error?: { message?: string } }) | null;
    if (!res.ok) return say(body?.error?.message ?? `The check failed (HTTP ${res.status}).`, true);
    say('');
    show(body!, file.name);
  } catch {
    say('The server could not be reached. Check your connection and try again.', true);
  }
}

input.addEventListener('change', () => check(input.files?.[0]));
for (const type of ['dragenter', 'dragover']) drop.addEventListener(type, (e) => { e.preventDefault(); drop.classList.add('over'); });
for (const type of ['dragleave', 'drop']) drop.addEventListener(type, () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  check(e.dataTransfer?.files[0]);
});
