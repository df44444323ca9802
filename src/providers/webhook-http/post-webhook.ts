import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import { forbiddenAddressReason } from './address-guard.js';

/** A DNS lookup with node's `dns.lookup` signature (all addresses); tests inject their own. */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export interface WebhookRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly signal?: AbortSignal | undefined;
}

/** What came of one POST: an answer (any status), or no answer with the reason. */
export type WebhookResponse =
  | { readonly ok: true; readonly status: number; readonly retryAfter: string | undefined; readonly body: string; readonly durationMs: number }
  | { readonly ok: false; readonly error: string; readonly refused: boolean; readonly durationMs: number };

export interface WebhookSender {
  post(req: WebhookRequest): Promise<WebhookResponse>;
  /** The same check the connection makes, for validating a URL when it is registered. */
  checkHost(hostname: string): Promise<string | null>;
  close(): void;
}

export interface WebhookSenderOptions {
  readonly allowPrivateNetworks: boolean;
  readonly timeoutMs?: number;
  readonly resolver?: Resolver;
  /** Keep-alive sockets per receiver (the per-endpoint concurrency cap). */
  readonly maxSocketsPerHost?: number;
}

/** Bytes of the receiver's answer kept for the delivery log. */
export const RESPONSE_EXCERPT_BYTES = 1024;

class AddressRefusedError extends Error {
  readonly code = 'EADDRREFUSED_BY_POLICY';
}

/**
 * POSTs webhooks with node:http(s), checking the address each connection is made to: a literal IP in
 * the URL before connecting (node does not look those up), and every address a name resolves to in
 * the socket's own `lookup`, so the answer that is checked is the answer that is connected to (no
 * window for DNS rebinding between a check and the connection). Redirects are never followed (node's
 * client does not); a 3xx is returned like any other status. The whole exchange is bounded by one
 * timeout; the answer is read to its end (so the keep-alive socket can be reused) but only its first
 * kilobyte is kept.
 */
export function createWebhookSender(o: WebhookSenderOptions): WebhookSender {
  const timeoutMs = o.timeoutMs ?? 15_000;
  const resolver = o.resolver ?? systemResolver;
  const agentOptions = { keepAlive: true, maxSockets: o.maxSocketsPerHost ?? 8, maxFreeSockets: o.maxSocketsPerHost ?? 8, timeout: timeoutMs };
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };

  const refusal = (address: string): string | null => (o.allowPrivateNetworks ? null : forbiddenAddressReason(address));

  const lookup: LookupFunction = (hostname, options, callback) => {
    resolver(hostname).then(
      (found) => {
        const usable = found.filter((a) => (options.family ? a.family === options.family : true));
        const refused = usable.map((a) => refusal(a.address)).find((r) => r !== null);
        // Every answer must pass: a name resolving to one public and one private address is refused,
        // since which one the socket would pick is not ours to decide.
        if (refused) return callback(new AddressRefusedError(`${hostname} resolves to ${refused}`), '', 4);
        if (usable.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4);
        if (options.all) return (callback as unknown as (e: null, a: typeof usable) => void)(null, usable);
        callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };

  async function checkHost(hostname: string): Promise<string | null> {
    const bare = hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(bare)) return refusal(bare);
    if (o.allowPrivateNetworks) return null;
    if (bare === 'localhost' || bare.endsWith('.localhost')) return `${bare} is a loopback name`;
    const found = await resolver(bare).catch(() => []);
    for (const a of found) {
      const r = refusal(a.address);
      if (r) return `${bare} resolves to ${r}`;
    }
    return null;
  }

  function post(req: WebhookRequest): Promise<WebhookResponse> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const url = new URL(req.url);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host)) {
      const refused = refusal(host);
      if (refused) return Promise.resolve({ ok: false, error: `Refused to connect: ${refused}.`, refused: true, durationMs: elapsed() });
    }
    const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:'];
    const request = url.protocol === 'https:' ? https.request : http.request;
    return new Promise<WebhookResponse>((resolve) => {
      let settled = false;
      const finish = (r: WebhookResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
        resolve(r);
      };
      const fail = (error: unknown) => {
        const refused = error instanceof AddressRefusedError;
        const text = error instanceof Error ? error.message : String(error);
        finish({ ok: false, error: refused ? `Refused to connect: ${text}.` : text, refused, durationMs: elapsed() });
      };
      const r = request(url, { method: 'POST', agent, lookup, headers: { ...req.headers, 'content-length': String(req.body.length) } }, (res) => {
        const kept: Buffer[] = [];
        let keptBytes = 0;
        res.on('data', (chunk: Buffer) => {
          if (keptBytes < RESPONSE_EXCERPT_BYTES) {
            kept.push(chunk.subarray(0, RESPONSE_EXCERPT_BYTES - keptBytes));
            keptBytes += Math.min(chunk.length, RESPONSE_EXCERPT_BYTES - keptBytes);
          }
        });
        res.on('end', () => {
          const retryAfter = res.headers['retry-after'];
          finish({ ok: true, status: res.statusCode ?? 0, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, body: Buffer.concat(kept).toString('utf8'), durationMs: elapsed() });
        });
        res.on('error', fail);
      });
      const timer = setTimeout(() => {
        r.destroy();
        fail(new Error(`No complete answer within ${timeoutMs / 1000} s.`));
      }, timeoutMs);
      const onAbort = () => {
        r.destroy();
        fail(new Error('The attempt was stopped.'));
      };
      req.signal?.addEventListener('abort', onAbort, { once: true });
      r.on('error', fail);
      r.end(req.body);
    });
  }

  return {
    post,
    checkHost,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
