// The load generator of bench/send.bench.ts, run in its own process on the load core: autocannon's
// programmatic API with setupRequest, so every request sends one fresh e-mail recipient, rotating over
// the pre-created forms (a form takes at most MAX_RECIPIENTS_PER_FORM). Reads its settings as JSON
// from BENCH_SEND_CONFIG and prints autocannon's summary as one JSON line.
import autocannon from 'autocannon';

interface Config { url: string; path: string | null; start: number; formIds: string[]; key: string; connections: number; durationSec: number; tag: string; perForm: number }

const c = JSON.parse(process.env['BENCH_SEND_CONFIG'] ?? '{}') as Config;
// The floor touches no form: only sends to forms have a capacity.
const capacity = c.path === null ? c.formIds.length * c.perForm : Infinity;
let next = c.start;
let exhausted = false;
const instance = autocannon(
  {
    url: c.url,
    connections: c.connections,
    duration: c.durationSec,
    requests: [
      {
        method: 'POST',
        headers: { authorization: `Bearer ${c.key}`, 'content-type': 'application/json' },
        setupRequest: (req) => {
          const i = next++;
          if (i >= capacity && !exhausted) {
            // Out of fresh slots: stop rather than send a form its 101st recipient (a 400).
            exhausted = true;
            setImmediate(() => instance.stop());
          }
          const form = c.formIds[i % c.formIds.length]!;
          const body = JSON.stringify({ recipients: [{ channel: 'email', email: `r${i}.${c.tag}@bench.example`, name: `Recipient ${i}` }] });
          return { ...req, path: c.path ?? `/api/v1/forms/${form}/send`, body };
        },
      },
    ],
  },
  (err, r) => {
    if (err) throw err;
    process.stdout.write(`${JSON.stringify({ requestsPerSec: r.requests.average, total: r.requests.total, latencyP50Ms: r.latency.p50, latencyP99Ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts, statusCodes: r.statusCodeStats, exhausted, next })}\n`);
  },
);
