// A Formsign webhook receiver in plain JavaScript: `WHSEC=whsec_… node examples/webhook-receiver.mjs`
// (Node 20 or later, nothing to install). It checks Service-Signature as clients/typescript's
// verifyWebhook does — HMAC-SHA256 of "<t>.<raw body>" keyed with the whole whsec_… string, any v1=
// may match (two during a secret rotation), the timestamp within 300 s — answers 204 to an event it
// verified and 400 to anything else, and prints one line per request. PORT chooses the port (4000).
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

const secret = process.env.WHSEC;
if (!secret?.startsWith('whsec_')) {
  console.error('Set WHSEC to the webhook\'s signing_secret (whsec_…), as the create response showed it.');
  process.exit(1);
}
const TOLERANCE_SECONDS = 300;

/** The verified event, or an Error saying why the request is refused. */
function verify(raw, header) {
  const parts = String(header ?? '').split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const signatures = parts.filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v)).map(([, v]) => Buffer.from(v, 'hex'));
  if (!Number.isInteger(t) || signatures.length === 0) return new Error('no t= and v1= in Service-Signature');
  const expected = createHmac('sha256', secret).update(`${t}.`).update(raw).digest();
  if (!signatures.some((s) => timingSafeEqual(s, expected))) return new Error('no v1= matches the body and the secret');
  if (Math.abs(Date.now() / 1000 - t) > TOLERANCE_SECONDS) return new Error(`timestamp ${t} is more than ${TOLERANCE_SECONDS} s away`);
  return JSON.parse(raw.toString('utf8'));
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c)).on('end', () => {
    const event = verify(Buffer.concat(chunks), req.headers['service-signature']);
    if (event instanceof Error) {
      console.log(`refused: ${event.message}`);
      res.writeHead(400).end();
      return;
    }
    // Deliveries are retried with the same event id: a real receiver drops one it has seen already.
    console.log(`verified ${event.type} ${event.id} ${event.data?.object?.id ?? ''}`.trim());
    res.writeHead(204).end();
  });
});
server.listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}/`));
