import type { Configuration } from 'openid-client';

type OpenIdClient = typeof import('openid-client');
let loading: Promise<OpenIdClient> | undefined;
/**
 * openid-client (with jose and oauth4webapi, ~50 modules) is loaded at the first sign-in through the
 * provider, not by every start and operator command that builds the client (issue 36 item 3).
 */
const openIdClient = (): Promise<OpenIdClient> => (loading ??= import('openid-client'));

// The OpenID Connect relying party (openid-client): discovery of the provider once (again after a
// failure), the authorization address with PKCE, state and nonce, and the code exchange, which
// checks the ID token (signature, issuer, audience, expiry, nonce) and the response's state and iss.

export interface OidcSettings {
  readonly issuerUrl: string;
  readonly clientId: string;
  readonly clientSecret: string | undefined;
  readonly redirectUri: string;
}

/** Who the provider says signed in (the ID token's claims). */
export interface OidcIdentity {
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
}

export interface OidcChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The provider refused or the answer failed a check; `message` is a sentence for the person. */
export class OidcError extends Error {
  constructor(message: string, readonly reason: 'unreachable' | 'refused' | 'invalid_answer') {
    super(message);
    this.name = 'OidcError';
  }
}

export interface OidcClient {
  authorizationUrl(checks: OidcChecks, loginHint?: string): Promise<string>;
  identify(callbackUrl: URL, checks: OidcChecks): Promise<OidcIdentity>;
}

const TIMEOUT_S = 10;

export function createOidcClient(settings: OidcSettings): OidcClient {
  let discovered: Promise<Configuration> | undefined;
  const configuration = (): Promise<Configuration> => {
    discovered ??= openIdClient()
      .then((client) => client.discovery(new URL(settings.issuerUrl), settings.clientId, settings.clientSecret, settings.clientSecret ? undefined : client.None(), {
        timeout: TIMEOUT_S,
        // Plain http is accepted by the configuration for a provider on this machine only (config.ts).
        ...(settings.issuerUrl.startsWith('http:') ? { execute: [client.allowInsecureRequests] } : {}),
      }))
      .catch((err: unknown) => {
        discovered = undefined;
        throw new OidcError(`The identity provider at ${settings.issuerUrl} could not be reached (${errorText(err)}). Try again in a moment, or tell your operator.`, 'unreachable');
      });
    return discovered;
  };

  return {
    async authorizationUrl(checks, loginHint) {
      const config = await configuration();
      const client = await openIdClient();
      const params: Record<string, string> = {
        redirect_uri: settings.redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
      };
      if (loginHint) params['login_hint'] = loginHint;
      return client.buildAuthorizationUrl(config, params).href;
    },

    async identify(callbackUrl, checks) {
      const config = await configuration();
      const client = await openIdClient();
      let tokens: Awaited<ReturnType<OpenIdClient['authorizationCodeGrant']>>;
      try {
        tokens = await client.authorizationCodeGrant(config, callbackUrl, { pkceCodeVerifier: checks.codeVerifier, expectedState: checks.state, expectedNonce: checks.nonce, idTokenExpected: true }, { redirect_uri: settings.redirectUri });
      } catch (err) {
        throw describe(err, client);
      }
      const idToken = tokens.claims();
      if (!idToken) throw new OidcError('The identity provider sent no ID token.', 'invalid_answer');
      // Some providers put the e-mail address in the ID token (Google, Keycloak), others only at their
      // userinfo endpoint (an ID token issued beside an access token, as OpenID Connect Core 5.4 has it).
      let claims: Record<string, unknown> = idToken;
      if (typeof idToken['email'] !== 'string' && tokens.access_token) {
        try {
          claims = { ...(await client.fetchUserInfo(config, tokens.access_token, idToken.sub)), sub: idToken.sub };
        } catch (err) {
          throw describe(err, client);
        }
      }
      return {
        subject: idToken.sub,
        email: typeof claims['email'] === 'string' ? claims['email'] : undefined,
        emailVerified: claims['email_verified'] === true || claims['email_verified'] === 'true',
        name: typeof claims['name'] === 'string' ? claims['name'] : undefined,
      };
    },
  };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message.slice(0, 200) : String(err).slice(0, 200);
}

/** openid-client's errors as sentences: what the provider said, or which check failed. */
function describe(err: unknown, client: OpenIdClient): OidcError {
  if (err instanceof client.AuthorizationResponseError) {
    return new OidcError(`The identity provider did not sign you in: ${err.error_description ?? err.error}.`, 'refused');
  }
  if (err instanceof client.ResponseBodyError) {
    if (err.error === 'invalid_grant') return new OidcError('The identity provider refused the sign-in code: it has expired or was used already. Start signing in again.', 'refused');
    return new OidcError(`The identity provider refused the sign-in: ${err.error_description ?? err.error}.`, 'refused');
  }
  const text = errorText(err);
  // openid-client wraps the check that failed (oauth4webapi's, naming the claim) as the cause.
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : '';
  if (/"nonce"/.test(cause)) return new OidcError('The identity provider\'s answer was made for another sign-in attempt (its nonce differs). Start signing in again.', 'invalid_answer');
  if (/"state"/.test(cause) || /state/i.test(text)) return new OidcError('The identity provider\'s answer belongs to another sign-in attempt (its state differs). Start signing in again.', 'invalid_answer');
  if (err instanceof TypeError || /fetch failed|ECONNREFUSED|timeout|aborted/i.test(text)) return new OidcError(`The identity provider could not be reached (${text}). Try again in a moment.`, 'unreachable');
  return new OidcError(`The identity provider's answer failed a check (${cause || text}). Start signing in again.`, 'invalid_answer');
}
