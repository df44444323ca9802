import assert from 'node:assert/strict';
import type { Harness } from '../harness.js';
import { REQUEST_ID } from '../contract-check.js';
import { fixture } from '../shared/fixtures.js';
import { multipart } from '../shared/multipart.js';

// A dashboard client over app.inject: the session cookie and the CSRF token as the page keeps them.

export interface DashResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

export interface Visitor {
  cookie: string | undefined;
  csrf: string | undefined;
  call(method: string, url: string, opts?: { json?: unknown; payload?: Buffer; headers?: Record<string, string>; csrf?: string | false }): Promise<DashResponse>;
}

let addresses = 0;

/** A browser; each gets its own client address unless given one (sign-ups are counted per address). */
export function visitor(h: Harness, ip = `10.200.${Math.floor(++addresses / 250) % 250}.${(addresses % 250) + 1}`): Visitor {
  const v: Visitor = {
    cookie: undefined,
    csrf: undefined,
    async call(method, url, opts = {}) {
      const headers: Record<string, string> = { ...(v.cookie ? { cookie: v.cookie } : {}), ...opts.headers };
      if (opts.csrf !== false && (opts.csrf ?? v.csrf)) headers['x-csrf-token'] = (opts.csrf || v.csrf)!;
      let payload = opts.payload;
      if (opts.json !== undefined) {
        payload = Buffer.from(JSON.stringify(opts.json));
        headers['content-type'] ??= 'application/json';
      }
      const res = await h.app.inject({ method: method as 'GET', url, headers, remoteAddress: ip, ...(payload ? { payload } : {}) });
      assert.match(String(res.headers['service-request-id']), REQUEST_ID, `${method} ${url}: request id`);
      const setCookie = res.headers['set-cookie'];
      const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
      if (typeof first === 'string' && first.startsWith('formsign_session=')) {
        const value = first.slice(0, first.indexOf(';'));
        v.cookie = value === 'formsign_session=' ? undefined : value;
      }
      if (res.statusCode < 300 && String(res.headers['content-type'] ?? '').startsWith('application/json')) {
        const body = JSON.parse(res.body) as { object?: string; csrf_token?: string };
        if (body.object === 'session' && body.csrf_token) v.csrf = body.csrf_token;
      }
      return { status: res.statusCode, headers: res.headers, body: res.body, json: <T>() => JSON.parse(res.body) as T };
    },
  };
  return v;
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${process.pid}-${++counter}-${Date.now()}@example.com`;
}

export const PASSWORD = 'correct horse battery';

export async function signedUp(h: Harness, ip?: string): Promise<Visitor & { email: string; accountId: string }> {
  const v = visitor(h, ip);
  const email = uniqueEmail();
  const res = await v.call('POST', '/dashboard/api/signup', { json: { account_name: 'Acme', email, password: PASSWORD } });
  assert.equal(res.status, 201, res.body);
  return Object.assign(v, { email, accountId: res.json<{ account: { id: string } }>().account.id });
}

export function errorCode(res: DashResponse): string {
  assert.match(String(res.headers['content-type']), /^application\/json/, `error as JSON: ${res.body.slice(0, 200)}`);
  const e = res.json<{ error: { code: string; type: string; message: string; request_id: string } }>().error;
  assert.match(e.request_id, REQUEST_ID);
  assert.ok(e.message.length > 10, 'a sentence for a person');
  return e.code;
}

/** Uploads the fillable fixture PDF as a test-mode template of the visitor's account; its id. */
export async function uploadedTemplate(v: Visitor, file = 'openoffice_form_example.pdf'): Promise<string> {
  const m = multipart([{ name: 'file', value: fixture(file), filename: file }]);
  const t = await v.call('POST', '/dashboard/api/test/templates', { payload: m.payload, headers: m.headers });
  assert.equal(t.status, 201, t.body);
  return t.json<{ id: string }>().id;
}
