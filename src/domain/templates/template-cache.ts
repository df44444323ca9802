import { findTemplate, findTemplates } from '../../db/repositories/templates.js';
import type { TemplateRow } from '../../db/tables.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { fieldSet, type FieldSet } from './field-set.js';
import { templateJson } from './present-template.js';

/** What the hot paths need of a template, prepared once: templates never change after import. */
export interface CachedTemplate {
  readonly id: string;
  readonly accountId: string;
  readonly mode: string;
  readonly name: string;
  readonly pdfKey: string;
  readonly fields: FieldSet;
  /** The Template object as JSON text. */
  readonly json: string;
}

type CacheDeps = Pick<DomainDeps, 'db' | 'templateCache'>;

function remember(deps: CacheDeps, row: TemplateRow): CachedTemplate {
  const t: CachedTemplate = {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode,
    name: row.name,
    pdfKey: row.pdf_key,
    fields: fieldSet(row.fields),
    json: templateJson(row).json,
  };
  deps.templateCache.set(row.id, t);
  return t;
}

function inPartition(t: CachedTemplate | undefined, p: Partition): CachedTemplate | undefined {
  // The cache is keyed by id alone; the partition is checked on every hit, as a query would.
  return t && t.accountId === p.accountId && t.mode === p.mode ? t : undefined;
}

/** One template of this partition, from the cache or the store (an edit API must key by updated_at too). */
export async function loadTemplate(deps: CacheDeps, p: Partition, id: string): Promise<CachedTemplate | undefined> {
  const hit = deps.templateCache.get(id);
  if (hit) return inPartition(hit, p);
  const row = await findTemplate(deps.db, p, id);
  return row && remember(deps, row);
}

/** Several templates of this partition by id, reading only those not cached; absent ids are left out. */
export async function loadTemplates(deps: CacheDeps, p: Partition, ids: readonly string[]): Promise<Map<string, CachedTemplate>> {
  const out = new Map<string, CachedTemplate>();
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const hit = deps.templateCache.get(id);
    if (hit === undefined) missing.push(id);
    else if (inPartition(hit, p)) out.set(id, hit);
  }
  for (const row of await findTemplates(deps.db, p, missing)) out.set(row.id, remember(deps, row));
  return out;
}
