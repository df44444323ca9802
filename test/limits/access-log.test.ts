import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setAccountLimits } from '../../src/domain/accounts/manage-accounts.js';
import { enqueue } from '../../src/outbox/enqueue.js';
import { formsExpire } from '../../src/outbox/jobs/forms-expire.job.js';
import { prettyLogStream } from '../../src/cli/pretty-log.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';

// The access log (one JSON line per request, nothing secret in it) and GET /metrics (issue 14).

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

async function waitFor(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

interface AccessLine {
  request_id?: string;
  msg?: string;
  method?: string;
  route?: string | null;
  path?: string;
  status?: number;
  duration_ms?: number;
  bytes?: number | null;
  account_id?: string | null;
  mode?: string | null;
}

for (const dialect of DIALECTS) {
  describe(`access log and metrics (${dialect})`, () => {
    let h: Harness;
    const lines: string[] = [];
    before(async () => {
      h = await createHarness(dialect, { logStream: { write: (l: string) => void lines.push(l) }, env: { METRICS_TOKEN }, contractLimits: true });
    });
    after(() => h.close());

    const linesOf = (id: string): AccessLine[] => lines.map((l) => JSON.parse(l) as AccessLine).filter((l) => l.request_id === id);

    it('one JSON line per request with its fields; never a key, a token, a query or a body', async () => {
      const { aTest } = h.actors;
      const marker = `body-marker-${randomBytes(8).toString('hex')}`;
      const signToken = randomBytes(24).toString('base64url');
      const fileToken = randomBytes(24).toString('base64url');
      const wrongKey = `fk_test_${randomBytes(16).toString('hex')}`;
      const cases = [
        { res: await h.request({ url: '/api/v1/templates?limit=3', as: aTest }), route: '/api/v1/templates', account: true },
        { res: await h.request({ method: 'POST', url: '/api/v1/forms', as: aTest, json: { template_id: 'tpl_000000000000000000000000', prefill: { secret: marker } } }), route: '/api/v1/forms', account: true },
        { res: await h.request({ url: '/api/v1/templates', headers: { authorization: `Bearer ${wrongKey}` } }), route: '/api/v1/templates', account: false },
        { res: await h.request({ url: `/sign/${signToken}` }), route: '/sign/:token', account: false },
        { res: await h.request({ url: `/api/v1/files/pdf/${fileToken}` }), route: '/api/v1/files/pdf/:token', account: false },
        { res: await h.request({ url: `/no/such/page?api_key=${wrongKey}` }), route: null, account: false },
      ];
      for (const { res, route, account } of cases) {
        const id = String(res.headers['service-request-id']);
        await waitFor(() => linesOf(id).length > 0, `the log line of ${id}`);
        const mine = linesOf(id);
        assert.equal(mine.length, 1, `exactly one line for ${id}: ${JSON.stringify(mine)}`);
        const line = mine[0]!;
        assert.equal(line.msg, 'request completed');
        assert.equal(line.status, res.status);
        if (route === null) assert.equal(line.route, null);
        else assert.ok(line.route === route || line.route?.startsWith(route.split(':')[0]!), `route ${line.route} for ${route}`);
        assert.ok(typeof line.method === 'string');
        assert.ok(typeof line.duration_ms === 'number' && line.duration_ms >= 0);
        assert.ok(line.bytes === null || (typeof line.bytes === 'number' && line.bytes >= 0));
        if (typeof res.headers['content-length'] === 'string') assert.equal(line.bytes, Number(res.headers['content-length']));
        assert.equal(line.account_id, account ? aTest.partition.accountId : null);
        assert.equal(line.mode, account ? 'test' : null);
      }
      const log = lines.join('');
      for (const secret of [aTest.key, wrongKey, marker, signToken, fileToken, 'fk_test_', 'fk_live_', 'api_key=']) {
        assert.ok(!log.includes(secret), `the log must not contain ${secret.slice(0, 12)}…`);
      }
    });

    it('pretty format: one short line per request from the access-log line', () => {
      let out = '';
      const time = new Date(2026, 10, 24, 9, 5, 7).getTime();
      prettyLogStream({ write: (t: string) => (out += t) }).write(
        `${JSON.stringify({ level: 30, time, msg: 'request completed', request_id: 'req_1', method: 'GET', route: '/api/v1/forms/:form_id', status: 404, duration_ms: 3.21, bytes: 120, account_id: 'acct_x', mode: 'test' })}\n`,
      );
      assert.equal(out, '09:05:07  GET /api/v1/forms/:form_id  404  3.2 ms  req_1\n');
    });

    it('/metrics: needs METRICS_TOKEN when set; counts per route template and status class, 429s per reason, outbox depth', async () => {
      const scrape = (authorization?: string) => h.app.inject({ url: '/metrics', ...(authorization ? { headers: { authorization } } : {}) });
      for (const auth of [undefined, 'Bearer wrong-token-0123456789', `Basic ${METRICS_TOKEN}`]) {
        const denied = await scrape(auth);
        assert.equal(denied.statusCode, 401, String(auth));
        assert.equal((JSON.parse(denied.body) as { error: { code: string } }).error.code, 'api_key_invalid');
        assert.ok(!denied.body.includes('formsign_http'), 'no metrics without the token');
      }
      const b = h.actors.bTest;
      await setAccountLimits(h.deps.domain, b.partition.accountId, { perMinute: 1 });
      assert.equal((await h.request({ url: '/api/v1/webhooks', as: b })).status, 200);
      assert.equal((await h.request({ url: '/api/v1/webhooks', as: b })).status, 429);
      await h.deps.domain.transact((trx) => enqueue(trx, b.partition, formsExpire, {}, { now: new Date().toISOString() }));

      const res = await scrape(`Bearer ${METRICS_TOKEN}`);
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain/);
      assert.equal(Object.keys(res.headers).filter((k) => k.startsWith('x-ratelimit')).length, 0, '/metrics is not an API call');
      const text = res.body;
      const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
      assert.ok(value(/^formsign_http_requests_total\{method="GET",route="\/api\/v1\/webhooks",status_class="2xx"\} (\d+)$/m) >= 1, text.slice(0, 2000));
      assert.ok(value(/^formsign_http_requests_total\{method="GET",route="\/api\/v1\/webhooks",status_class="4xx"\} (\d+)$/m) >= 1);
      assert.ok(value(/^formsign_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/webhooks",status_class="2xx"\} (\d+)$/m) >= 1);
      assert.equal(value(/^formsign_rate_limited_requests_total\{reason="rate_limited"\} (\d+)$/m), 1);
      assert.equal(value(/^formsign_outbox_jobs\{kind="forms.expire",status="pending"\} (\d+)$/m), 1);
      assert.match(text, /^# TYPE formsign_rate_limit_redis_fail_open_total counter$/m);
      assert.match(text, /^# TYPE formsign_webhook_attempts_total counter$/m);
      assert.match(text, /^# TYPE formsign_seal_duration_seconds histogram$/m);
      // An unmatched path is one label value, never the path itself.
      assert.ok(!/route="\/no\/such/.test(text));
    });
  });
}
