import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TemplateRow } from '../../src/db/tables.js';
import { templateJson } from '../../src/domain/templates/present-template.js';

describe('templateJson', () => {
  it('is exactly what JSON.stringify makes of the Template object, quotes and all', () => {
    const fields = [{ name: 'na"me\\ Łódź', type: 'select', required: true, signer: 1, page: 1, x: 1.5, y: 2, width: 3, height: 4, options: ['日本', 'a"b'] }];
    const row: TemplateRow = {
      id: 'tmpl_abc', account_id: 'acct_x', mode: 'test', name: 'He said "hi"\n\u2028', page_count: 2, fields: JSON.stringify(fields),
      signer_count: 1, signers: JSON.stringify([{ slot: 1, role: 'Ténant "A"' }]), warnings: JSON.stringify(['XFA "data" ignored']), pdf_key: 'k', pdf_sha256: 's', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-02T00:00:00.000Z',
      version: 1, deleted_at: null,
    };
    const expected = { object: 'template', id: 'tmpl_abc', name: row.name, mode: 'test', page_count: 2, fields, signer_count: 1, signers: [{ slot: 1, role: 'Ténant "A"' }], warnings: ['XFA "data" ignored'], created_at: row.created_at, updated_at: row.updated_at };
    assert.equal(templateJson(row).json, JSON.stringify(expected));
  });
});
