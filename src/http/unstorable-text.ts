// Text PostgreSQL cannot store (NUL), as the error body names it. Apart from validation.ts, which
// compiles schemas with Ajv: the start gate's error body needs these and not Ajv (issue 36 item 3).

export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

/**
 * PostgreSQL refusing text it cannot store: NUL (22021 in text, 22P05 as a \u0000 escape in jsonb).
 * The backstop for input read outside validation (multipart text parts), so that it is a 400, never a 500.
 */
export function isUnstorableText(err: unknown): boolean {
  const code = err && typeof err === 'object' ? (err as { code?: unknown }).code : undefined;
  return code === '22021' || code === '22P05';
}
