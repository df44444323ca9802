/**
 * A response body already serialised. Hot read paths build JSON from stored JSON columns by string
 * concatenation instead of parse-then-stringify; the phantom type keeps the shape known to callers.
 */
export interface Json<T> {
  readonly json: string;
  readonly __shape?: T;
}

export function json<T>(text: string): Json<T> {
  return { json: text };
}

export function parseJson<T>(j: Json<T>): T {
  return JSON.parse(j.json) as T;
}

/** JSON text of a string, or `null`. */
export function str(value: string | null): string {
  return value === null ? 'null' : JSON.stringify(value);
}
