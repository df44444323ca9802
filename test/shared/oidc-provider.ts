import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

// A real OpenID Connect provider on loopback for the single sign-on tests: oidc-provider (the
// certified Node implementation) with one confidential client, PKCE required, and people found by
// `findAccount` in `people`. Its login and consent screens are replaced by a handler that signs in
// whoever `signInAs` names and grants the scopes asked for, so a test (or a browser) goes through the
// provider's real authorization, token and userinfo endpoints without a form to fill.

export interface Person {
  email: string;
  email_verified: boolean;
  name: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The OIDC_* environment for a Formsign whose BASE_URL is `baseUrl`. */
  env: Record<string, string>;
  people: Map<string, Person>;
  /** The subject the next login interaction signs in. */
  signInAs: string;
  /** Seconds an authorization code lives (60 unless a test shortens it). */
  codeTtl: number;
  /**
   * Follows the provider's redirects from the authorization address (logging in as `signInAs`) to
   * the redirect back to Formsign, and returns that address (the callback with code and state).
   */
  authorize(authorizationUrl: string): Promise<string>;
  close(): Promise<void>;
}

/** `redirectUri`: Formsign's callback, or a function giving it when the first request comes (a server whose port is chosen after). */
export async function startTestProvider(redirectUriOf: string | (() => string)): Promise<TestProvider> {
  const redirectUri = () => (typeof redirectUriOf === 'string' ? redirectUriOf : redirectUriOf());
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'formsign-test';
  const clientSecret = 'a-client-secret-of-the-test-provider';
  const people = new Map<string, Person>();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const state = { signInAs: '', codeTtl: 60 };
  const make = () => new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri()], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_post' }],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: ['a-cookie-key-of-the-test-provider'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    ttl: { AuthorizationCode: () => state.codeTtl, AccessToken: 600, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
    async findAccount(_ctx: unknown, sub: string) {
      const person = people.get(sub);
      return person ? { accountId: sub, claims: async () => ({ sub, ...person }) } : undefined;
    },
  });
  let provider: Provider | undefined;
  let handle: ReturnType<Provider['callback']> | undefined;
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    provider ??= make();
    handle ??= provider.callback();
    if (!req.url?.startsWith('/interaction/')) return handle(req, res);
    const p = provider;
    void (async () => {
      const details = await p.interactionDetails(req, res);
      if (details.prompt.name === 'login') return p.interactionFinished(req, res, { login: { accountId: state.signInAs } }, { mergeWithLastSubmission: false });
      const grant = new p.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id });
      grant.addOIDCScope('openid email profile');
      return p.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });

  return {
    issuer,
    clientId,
    clientSecret,
    env: { OIDC_ISSUER_URL: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret },
    people,
    get signInAs() {
      return state.signInAs;
    },
    set signInAs(sub: string) {
      state.signInAs = sub;
    },
    get codeTtl() {
      return state.codeTtl;
    },
    set codeTtl(s: number) {
      state.codeTtl = s;
    },
    async authorize(authorizationUrl) {
      const jar = new Map<string, string>();
      let url = authorizationUrl;
      for (let i = 0; i < 12; i++) {
        if (url.startsWith(redirectUri())) return url;
        const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
        for (const c of res.headers.getSetCookie()) {
          const pair = c.slice(0, c.indexOf(';') < 0 ? c.length : c.indexOf(';'));
          jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
        }
        const location = res.headers.get('location');
        if (!location) throw new Error(`the provider answered ${res.status} at ${url}: ${(await res.text()).slice(0, 500)}`);
        url = new URL(location, url).href;
      }
      throw new Error('the provider redirected more than 12 times');
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
