import YAML from 'yaml';
import { servedDocument } from '../../openapi.js';
import { defineRoute } from '../route.js';

export default defineRoute({
  operationId: 'getOpenApiDocument',
  handler: (s) => {
    // Serialised once: the document cannot change while the process runs.
    const yaml = YAML.stringify(servedDocument(s.openapi, s.domain.baseUrl));
    return async (_req, reply) => reply.type('application/yaml; charset=utf-8').send(yaml);
  },
});
