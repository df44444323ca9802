/** Where the OpenID provider sends the browser back to (the redirect URI registered at the provider). */
export const SSO_CALLBACK_PATH = '/dashboard/sso/callback';
