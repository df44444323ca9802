import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { AppError } from '../../domain/errors.js';

/**
 * JSON bodies parsed as Fastify does by default (secure-json-parse refusing `__proto__` and
 * `constructor.prototype` keys, never stripping them), but with errors that say which refusal it was:
 * Fastify's own parser reports a poisoned key as "not valid JSON".
 */
export function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.length === 0) return done(new AppError('invalid_json', 'The request body is empty but Content-Type is application/json.'), undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (err) {
      const poisoned = err instanceof SyntaxError && /forbidden prototype property/.test(err.message);
      done(
        poisoned
          ? new AppError('invalid_json', 'The request body contains a `__proto__` or `constructor.prototype` key, which is refused for safety.')
          : new AppError('invalid_json', 'The request body is not valid JSON.'),
        undefined,
      );
    }
  });
}
