// Part of `npm run test:image` (scripts/test-image.sh): the API flow against the server running in the
// exported image. Reads the test key and the sample template from the first start's output (as a
// person would), then creates a form, sends it, signs it as the signing page does (open the link,
// keep its cookies, post the values), waits for the worker to seal it, and saves the signed PDF.
//   node scripts/test-image-flow.mjs <base url> <server log> <signed.pdf to write>
import fs from 'node:fs';

const [base, logFile, out] = process.argv.slice(2);
const fail = (what) => {
  console.error(`test:image: FAILED: ${what}`);
  process.exit(1);
};

const log = fs.readFileSync(logFile, 'utf8');
const key = /API key:\s+(fk_test_[0-9a-f]+)/.exec(log)?.[1];
const templateId = /template:\s+(tmpl_\w+)/.exec(log)?.[1];
if (!key || !templateId) fail(`the first start's key and template in the server's output:\n${log.slice(0, 2000)}`);
const auth = { authorization: `Bearer ${key}` };

async function api(method, path, body) {
  const res = await fetch(`${base}${path}`, { method, headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  if (!res.ok) fail(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

// A 2×1 PNG, as the signing page would submit a drawn signature.
const PNG = `data:image/png;base64,${Buffer.from('89504e470d0a1a0a0000000d4948445200000002000000010806000000f4227f8a0000001149444154789c6310918bfa2f2217d500000a70029802a1f54c0000000049454e44ae426082', 'hex').toString('base64')}`;
const valueFor = (f) => {
  if (f.type === 'signature' || f.type === 'initials') return { image: PNG, method: 'drawn' };
  if (f.type === 'checkbox') return true;
  if (f.type === 'radio' || f.type === 'select') return f.options[0];
  return { email: 'ada@example.com', phone: '+14155550100', number: 42, date: '2026-01-02' }[f.type] ?? 'Ada Lovelace';
};

const template = await api('GET', `/api/v1/templates/${templateId}`);
const form = await api('POST', '/api/v1/forms', { template_id: templateId, name: 'Container image check', prefill: {} });
if (form.status !== 'draft') fail(`a new form is a draft: ${form.status}`);
const sent = await api('POST', `/api/v1/forms/${form.id}/send`, { recipients: [{ channel: 'email', email: 'ada@example.com', name: 'Ada Lovelace' }] });
const signingUrl = sent.recipients[0]?.signing_url;
if (sent.status !== 'sent' || !signingUrl?.startsWith(`${base}/sign/`)) fail(`sent, with a signing link on ${base}: ${JSON.stringify(sent)}`);

// The signing page: its cookies, then the signer's values and consent.
const page = await fetch(signingUrl);
const pageHtml = await page.text();
if (page.status !== 200 || !pageHtml.toLowerCase().includes('<html')) fail(`the signing page: ${page.status}`);
const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
const values = Object.fromEntries(template.fields.filter((f) => f.signer === 1 && f.type !== 'date_signed').map((f) => [f.name, valueFor(f)]));
const signed = await fetch(signingUrl, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-formsign-signing': '1', 'user-agent': 'formsign-test-image', ...(cookie ? { cookie } : {}) },
  body: JSON.stringify({ values, consent: true }),
});
const signedBody = await signed.text();
if (signed.status !== 200 || JSON.parse(signedBody).complete !== true) fail(`signing: ${signed.status} ${signedBody}`);

// The worker process seals it; the form is `signed` only then.
const deadline = Date.now() + 90_000;
let status;
while (Date.now() < deadline) {
  status = (await api('GET', `/api/v1/forms/${form.id}`)).status;
  if (status === 'signed') break;
  await new Promise((r) => setTimeout(r, 300));
}
if (status !== 'signed') fail(`the form was not sealed within 90 s (status ${status}); is the worker running?`);

// As the README: a 302 to a presigned address, followed.
const pdf = await fetch(`${base}/api/v1/forms/${form.id}/signed-pdf`, { headers: auth });
const bytes = Buffer.from(await pdf.arrayBuffer());
if (pdf.status !== 200 || pdf.headers.get('content-type') !== 'application/pdf' || bytes.subarray(0, 5).toString() !== '%PDF-') fail(`the signed PDF: ${pdf.status} ${pdf.headers.get('content-type')}`);
fs.writeFileSync(out, bytes);
console.log(`test:image: ${form.id} signed; signed PDF ${bytes.length} bytes`);
