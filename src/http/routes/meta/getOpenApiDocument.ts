import type YAML from 'yaml';
import { loadOnFirstUse } from '../../../lib/load-on-first-use.js';
import { servedDocument } from '../../openapi.js';
import { defineRoute } from '../route.js';

const yaml = loadOnFirstUse<typeof YAML>('yaml');

export default defineRoute({
  operationId: 'getOpenApiDocument',
  handler: (s) => {
    // Serialised on the first request, then kept: the document cannot change while the process runs,
    // and loading the YAML library and writing ~100 KB of YAML at every start cost ~80 ms of it.
    let text: string | undefined;
    return async (_req, reply) => {
      text ??= yaml().stringify(servedDocument(s.openapi, s.domain.baseUrl));
      return reply.type('application/yaml; charset=utf-8').send(text);
    };
  },
});
