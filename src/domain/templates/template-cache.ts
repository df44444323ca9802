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

/** What the template cache must offer; lib/lru.ts's Lru fits too (tests use one). */
export interface TemplateCacheStore {
  get(id: string): CachedTemplate | undefined;
  set(id: string, template: CachedTemplate): void;
}

/**
 * Roughly the memory a cached template holds: its JSON text and, for the fields, the stored JSON,
 * the per-field JSON pieces and the parsed objects (each about the JSON's size), at two bytes per
 * UTF-16 unit. A 20,000-field template weighs about 9 MB, a typical one a few kB.
 */
export function templateWeight(t: CachedTemplate): number {
  return 2 * (t.json.length + 3 * t.fields.json.length) + 1024;
}

/**
 * Templates by id, least recently used dropped first, bounded by their total weight in bytes (not by
 * count: six 20,000-field templates would otherwise hold 54 MB). A template heavier than a quarter of
 * the budget is not kept at all, so one huge template cannot empty the cache for everyone else.
 */
export class TemplateCache implements TemplateCacheStore {
  readonly #map = new Map<string, { template: CachedTemplate; weight: number }>();
  #bytes = 0;
  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#map.size;
  }

  get(id: string): CachedTemplate | undefined {
    const entry = this.#map.get(id);
    if (!entry) return undefined;
    this.#map.delete(id);
    this.#map.set(id, entry);
    return entry.template;
  }

  set(id: string, template: CachedTemplate): void {
    this.#drop(id);
    const weight = templateWeight(template);
    if (weight > this.maxBytes / 4) return;
    for (const oldest of this.#map.keys()) {
      if (this.#bytes + weight <= this.maxBytes) break;
      this.#drop(oldest);
    }
    this.#map.set(id, { template, weight });
    this.#bytes += weight;
  }

  #drop(id: string): void {
    const entry = this.#map.get(id);
    if (!entry) return;
    this.#map.delete(id);
    this.#bytes -= entry.weight;
  }
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
