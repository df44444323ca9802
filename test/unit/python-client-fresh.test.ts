import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { generatePythonClient, PYTHON_GENERATED_PATH } from '../../scripts/generate-python-client.js';
import { listOperations, loadOpenApiDocument, servedDocument } from '../../src/http/openapi.js';

describe('the Python client is generated from openapi.yaml', () => {
  const doc = servedDocument(loadOpenApiDocument());
  const committed = fs.readFileSync(PYTHON_GENERATED_PATH, 'utf8');

  it('clients/python/src/formsign/_generated.py is what the script makes of the served document (run `npm run generate`)', () => {
    assert.equal(committed, generatePythonClient(doc));
  });

  it('has one method per served operation and one type per schema', () => {
    for (const op of listOperations(doc)) {
      const method = op.operation.operationId.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
      assert.match(committed, new RegExp(`\\n    def ${method}\\(self`), `${op.operation.operationId} has no method ${method}`);
    }
    const schemas = Object.keys((doc['components'] as { schemas: Record<string, unknown> }).schemas);
    for (const s of schemas) assert.match(committed, new RegExp(`\\n${s} = `), `schema ${s} has no type`);
  });
});
