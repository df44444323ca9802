// A revoked signing certificate never seals, end to end through the real worker on both stores
// (issue 34 item 5): SIGNING_CERT_P12 holds a certificate from a loopback PKI (test/shared/loopback-pki.ts)
// that its CA has revoked. The last signature leads to no seal: the form's `sealing.last_error`
// names the certificate and the OCSP responder that said so, it is never `signed`,
// `formsign_seal_certificate_refused_total{reason="revoked"}` counts the attempts, and /readyz answers
// 503 saying seals are refused — also from a fresh process that has not sealed anything (its own check).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHarness, DIALECTS, errorOf, type Harness } from '../harness.js';
import { startLoopbackPki, type LoopbackPki } from '../shared/loopback-pki.js';
import { SIGN_HEADERS, sendTo, strokePng, twoSignerTemplate } from '../signing/support.js';

interface FormBody { status: string; sealing: { status: string; attempts: number; last_error: string | null } | null }

const ATTEMPTS = 2;

for (const dialect of DIALECTS) {
  describe(`a revoked signing certificate (${dialect})`, () => {
    let pki: LoopbackPki;
    let h: Harness;
    let env: Record<string, string>;

    before(async () => {
      pki = await startLoopbackPki();
      const cert = pki.issue('revoked-seal', { extensions: 'keyUsage=critical,digitalSignature,nonRepudiation\n' });
      pki.revoke(cert);
      env = { BASE_URL: 'http://localhost:3000', SIGNING_CERT_P12: pki.p12(cert, 's3cret'), SIGNING_CERT_PASSWORD: 's3cret' };
      h = await createHarness(dialect, { env, worker: { retryPolicies: { 'form.seal': { maxAttempts: ATTEMPTS, baseMs: 200, maxMs: 400 } } } });
      await h.deps.worker.start();
    });
    after(async () => {
      await h?.deps.worker.stop();
      await h?.close();
      await pki?.close();
    });

    const sign = (token: string, values: Record<string, unknown>) =>
      h.app.inject({ method: 'POST', url: `/sign/${token}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: JSON.stringify({ values, consent: true }) });

    it('no seal: sealing.last_error names it, the metric counts it, /readyz says so', async () => {
      const as = h.actors.aTest;
      const f = await sendTo(h, as, await twoSignerTemplate(h, as.partition), ['tenant@example.com', 'landlord@example.com']);
      assert.equal((await sign(f.tokens[0]!, { tenant_name: 'Ada Lovelace', tenant_signature: { image: strokePng(), method: 'drawn' } })).statusCode, 200);
      assert.equal((await sign(f.tokens[1]!, { landlord_name: 'Charles Babbage', landlord_signature: { image: strokePng(), method: 'typed' } })).statusCode, 200);
      const deadline = Date.now() + 90_000;
      let form = (await h.request({ url: `/api/v1/forms/${f.formId}`, as })).json<FormBody>();
      while (form.sealing?.status !== 'failed') {
        assert.ok(Date.now() < deadline, `failed within 90 s; last seen ${JSON.stringify(form.sealing)}`);
        await new Promise((r) => setTimeout(r, 100));
        form = (await h.request({ url: `/api/v1/forms/${f.formId}`, as })).json<FormBody>();
      }
      assert.notEqual(form.status, 'signed');
      assert.equal(form.sealing.attempts, ATTEMPTS);
      assert.match(form.sealing.last_error ?? '', /The signing certificate is revoked: CN=Formsign Test revoked-seal, serial [0-9a-f]+ \(OCSP, http:\/\/127\.0\.0\.1:\d+\/ocsp\/intermediate\) says so/);
      const signed = await h.request({ url: `/api/v1/forms/${f.formId}/signed-pdf?format=base64`, as });
      assert.notEqual(signed.status, 200, 'no sealed PDF');

      const metrics = (await h.deps.metrics.render()).body;
      assert.match(metrics, new RegExp(`formsign_seal_certificate_refused_total\\{reason="revoked"\\} ${ATTEMPTS}\\b`));

      const ready = await h.request({ url: '/readyz' });
      assert.equal(ready.status, 503);
      assert.equal(errorOf(ready).code, 'service_unavailable');
      assert.match(errorOf(ready).message, /Not ready: seals are refused: The signing certificate is revoked: CN=Formsign Test revoked-seal/);
    });

    it('a process that has sealed nothing checks the certificate itself for /readyz', async () => {
      const fresh = await createHarness(dialect, { env });
      try {
        // The check runs within the probe's 3 s bound; on a loaded machine its first answer may come
        // after that probe returned (a check that has not answered refuses nothing), so ask again.
        const deadline = Date.now() + 30_000;
        let ready = await fresh.request({ url: '/readyz' });
        while (ready.status !== 503 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 250));
          ready = await fresh.request({ url: '/readyz' });
        }
        assert.equal(ready.status, 503, ready.body);
        assert.match(errorOf(ready).message, /seals are refused: The signing certificate is revoked/);
      } finally {
        await fresh.close();
      }
    });
  });
}
