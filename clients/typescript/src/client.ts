import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/api.js';

export interface FormsignClientOptions {
  /** `fk_test_…` or `fk_live_…`. */
  readonly apiKey: string;
  /** The server's address, e.g. `http://localhost:3000` (paths start with `/api/v1`). */
  readonly baseUrl: string;
  /** A fetch implementation (default: the global one). */
  readonly fetch?: (input: Request) => Promise<Response>;
}

export type FormsignClient = Client<paths>;

/** A client typed by the API's OpenAPI document: paths, parameters, bodies and answers are checked. */
export function createFormsignClient(o: FormsignClientOptions): FormsignClient {
  return createClient<paths>({
    baseUrl: o.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${o.apiKey}` },
    ...(o.fetch ? { fetch: o.fetch } : {}),
  });
}
