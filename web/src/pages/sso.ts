import { api } from '../api';

// Single sign-on (issue 39): the server keeps the attempt (state, nonce, PKCE verifier) and gives the
// provider's address; the browser goes there and comes back to /dashboard/sso/callback.

interface SsoRedirect {
  object: 'sso_redirect';
  url: string;
}

export async function startSso(email: string | undefined): Promise<void> {
  const { url } = await api<SsoRedirect>('POST', '/sso/start', email ? { email } : {});
  location.assign(url);
}
