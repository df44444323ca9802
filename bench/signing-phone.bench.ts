// The 1040 on a throttled phone (issue 43 item 4): how soon its first page is usable, and how much the
// layout moves while it loads. Chromium at 390×844 (touch, 2×) through the DevTools protocol: the CPU
// slowed 4× (Emulation.setCPUThrottlingRate) and DevTools' "Slow 4G" network (562.5 ms latency,
// 1,474.56 kbit/s down, 675 kbit/s up: Network.emulateNetworkConditions). Each load is a fresh
// browser context (nothing cached) on a new form. "Usable" is the page's own `formsign:interactive`
// mark (its script wired and its first page shown with its markers, in guided mode at the guided zoom:
// the server's picture of it, first-page.webp, or pdf.js's drawing when there is none), from the
// navigation's start; CLS is the sum of layout-shift entries without recent input until then, plus
// one second after (the session-window CLS can only be smaller). Median of BENCH_PHONE_RUNS (5) loads
// after one warm-up. Target: first page usable < 3,000 ms, CLS < 0.1. A loaded machine stretches the
// times: the load average is reported with them.
import os from 'node:os';
import { openBrowserHarness, PHONE_CONTEXT } from '../test/pages/chromium.js';
import { multipart } from '../test/shared/multipart.js';
import { fixture } from '../test/shared/fixtures.js';
import { median } from './stats.js';

const RUNS = Number(process.env['BENCH_PHONE_RUNS'] ?? 5);
const SLOW_4G = { offline: false, latency: 562.5, downloadThroughput: (1474.56 * 1000) / 8, uploadThroughput: (675 * 1000) / 8 };

interface Row { name: string; ours: number; target: string; unit: string }
interface Load { interactive: number; cls: number; bytes: number; guided: boolean; requests: Fetched[] }
/** One response of a load: its address (the token cut out), bytes over the wire, and when it ended (ms from the navigation). */
interface Fetched { url: string; bytes: number; end: number }

export async function run(): Promise<Row[]> {
  const b = await openBrowserHarness();
  try {
    const as = b.h.actors.aTest;
    const m = multipart([{ name: 'file', value: fixture('irs_f1040_2019_xfa_hybrid.pdf'), filename: 'f1040.pdf' }, { name: 'name', value: 'Form 1040 (2019)' }]);
    const uploaded = await b.h.request({ method: 'POST', url: '/api/v1/templates', as, payload: m.payload, headers: m.headers });
    if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${uploaded.body}`);
    const templateId = uploaded.json<{ id: string }>().id;
    const link = async (i: number): Promise<string> => {
      const created = await b.h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId } });
      const formId = created.json<{ id: string }>().id;
      const sent = await b.h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as, json: { recipients: [{ email: `phone-${i}@example.com`, channel: 'email', name: 'Bench Signer' }] } });
      if (sent.status !== 200) throw new Error(`send: ${sent.status} ${sent.body}`);
      return `${b.origin}${new URL(sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients[0]!.signing_url).pathname}`;
    };
    const load = async (url: string): Promise<Load> => {
      const ctx = await b.browser.newContext(PHONE_CONTEXT);
      try {
        const page = await ctx.newPage();
        const cdp = await ctx.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        // Bytes per request from Playwright's view of the context, which (unlike this page's CDP
        // session) also sees the requests of pdf.js's worker. Headers and body as sent (compressed).
        const requests: Fetched[] = [];
        const started = Date.now();
        ctx.on('requestfinished', (req) => {
          const ended = Date.now() - started;
          void req.sizes().then((s) => requests.push({ url: new URL(req.url()).pathname.replace(/^\/sign\/[^/]+/, '/sign/<token>'), bytes: s.responseBodySize + s.responseHeadersSize, end: ended })).catch(() => undefined);
        });
        await page.goto(url, { waitUntil: 'commit' });
        await page.waitForFunction(() => performance.getEntriesByName('formsign:interactive').length > 0, undefined, { timeout: 120_000 });
        await page.waitForTimeout(1000);
        const seen = (await page.evaluate(`new Promise((resolve) => {
          let cls = 0;
          new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) cls += e.value; }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve({
            interactive: performance.getEntriesByName('formsign:interactive')[0].startTime,
            cls,
            guided: document.body.classList.contains('guided-mode'),
          }), 50);
        })`)) as Omit<Load, 'bytes'>;
        // Before the mark (what the signer waited for), as Chromium's clock and ours start within a few ms.
        const bytes = requests.filter((r) => r.end <= seen.interactive + 1000).reduce((n, r) => n + r.bytes, 0);
        return { ...seen, bytes, requests };
      } finally {
        await ctx.close();
      }
    };
    await load(await link(-1));
    const runs: Load[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await load(await link(i)));
    if (process.env['BENCH_PHONE_BREAKDOWN']) {
      // The median load's requests, in the order they ended: what the bytes before "usable" are.
      const mid = [...runs].sort((a, b) => a.interactive - b.interactive)[Math.floor(runs.length / 2)]!;
      console.log(`requests of the median load (usable at ${mid.interactive.toFixed(0)} ms):`);
      for (const r of [...mid.requests].sort((a, b) => a.end - b.end)) console.log(`  ${String(r.end).padStart(6)} ms ${String(r.bytes).padStart(8)} B  ${r.url}`);
    }
    if (runs.some((r) => !r.guided)) throw new Error(`expected guided mode: ${JSON.stringify(runs)}`);
    return [
      { name: 'machine load average (1 min) at the end, for 2 cores', ours: os.loadavg()[0]!, target: '(reported)', unit: 'load' },
      { name: `1040 on a phone (4× CPU, slow 4G), first page usable, ${RUNS} loads p50`, ours: median(runs.map((r) => r.interactive)), target: '< 3000 ms', unit: 'ms' },
      { name: `1040 on a phone (4× CPU, slow 4G), CLS until usable + 1 s, p50`, ours: median(runs.map((r) => r.cls)), target: '< 0.1', unit: 'CLS' },
      { name: `1040 on a phone, bytes over the network until usable + 1 s, p50`, ours: median(runs.map((r) => r.bytes)), target: '(reported)', unit: 'bytes' },
    ];
  } finally {
    await b.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(`${r.name}\n  ours ${r.ours.toFixed(r.unit === 'CLS' ? 3 : 0)} ${r.unit} (target ${r.target})`);
}
