import { findTemplate, findTemplates, findTemplateVersion } from '../../db/repositories/templates.js';
import type { TemplateRow } from '../../db/tables.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import type { CachedTemplate, DomainDeps, TemplateCacheStore } from '../context.js';
import { fieldSet, type FieldSet } from './field-set.js';
import { templateJson } from './present-template.js';

/** How long a template read from the store answers API reads and new forms without being read again. */
export const TEMPLATE_FRESH_MS = 2000;

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
/** Without a clock the system's is used; a mix of clocks can only make an entry look stale, never fresh. */
type FreshDeps = CacheDeps & { readonly clock?: Clock | undefined };

function nowMs(deps: FreshDeps): number {
  return (deps.clock ?? systemClock).now().getTime();
}

/**
 * Caches the row as this template's current entry; `readAt` -Infinity when no clock is at hand (stale
 * for the API at once). A read that raced an edit of this process does not put back an older version
 * or undo a delete (both only move forward); a raced rename is stale for TEMPLATE_FRESH_MS at most.
 */
export function rememberTemplate(deps: CacheDeps, row: TemplateRow, readAt = Number.NEGATIVE_INFINITY): CachedTemplate {
  const t: CachedTemplate = {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode,
    name: row.name,
    pdfKey: row.pdf_key,
    version: row.version,
    fields: fieldSet(row.fields),
    json: templateJson(row).json,
    deleted: row.deleted_at !== null,
    readAt,
  };
  const held = current(deps, row.id);
  const older = held !== undefined && (held.version > t.version || (held.version === t.version && held.deleted && !t.deleted));
  if (!older) deps.templateCache.set(row.id, t);
  return t;
}

function inPartition(t: CachedTemplate | undefined, p: Partition): CachedTemplate | undefined {
  // The cache is keyed by id alone; the partition is checked on every hit, as a query would.
  return t && t.accountId === p.accountId && t.mode === p.mode ? t : undefined;
}

/** The current entry of `id`: never an earlier version's entry, whose key is not an id. */
function current(deps: CacheDeps, id: string): CachedTemplate | undefined {
  const hit = deps.templateCache.get(id);
  return hit?.id === id && hit.json !== '' ? hit : undefined;
}

function isFresh(deps: FreshDeps, t: CachedTemplate): boolean {
  const age = nowMs(deps) - t.readAt;
  return age >= 0 && age <= TEMPLATE_FRESH_MS;
}

function live(t: CachedTemplate | undefined): CachedTemplate | undefined {
  return t && !t.deleted ? t : undefined;
}

/**
 * One live template of this partition as it is now (for the API and for new forms), from the cache
 * while fresh, else from the store. Undefined when missing, deleted or another partition's.
 */
export async function loadTemplate(deps: FreshDeps, p: Partition, id: string): Promise<CachedTemplate | undefined> {
  const hit = current(deps, id);
  if (hit && isFresh(deps, hit)) return live(inPartition(hit, p));
  const row = await findTemplate(deps.db, p, id);
  return live(row && rememberTemplate(deps, row, nowMs(deps)));
}

/** Several live templates of this partition by id, reading only those not freshly cached; absent ids are left out. */
export async function loadTemplates(deps: FreshDeps, p: Partition, ids: readonly string[]): Promise<Map<string, CachedTemplate>> {
  const out = new Map<string, CachedTemplate>();
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const hit = current(deps, id);
    if (hit === undefined || !isFresh(deps, hit)) missing.push(id);
    else if (live(inPartition(hit, p))) out.set(id, hit);
  }
  const now = nowMs(deps);
  for (const row of await findTemplates(deps.db, p, missing)) {
    const t = rememberTemplate(deps, row, now);
    if (!t.deleted) out.set(row.id, t);
  }
  return out;
}

/** A form's reference to the fields it was made with. */
export interface VersionRef {
  readonly id: string;
  readonly version: number;
}

/**
 * loadTemplateVersion for a page of forms: cached versions cost nothing, the current versions of the
 * rest are read in one query, and only versions edited away since are read one by one. Keyed by
 * `versionKey`; absent when the template is not found.
 */
export async function loadTemplateVersions(deps: CacheDeps, p: Partition, refs: readonly VersionRef[]): Promise<Map<string, FieldSet>> {
  const out = new Map<string, FieldSet>();
  const missing: VersionRef[] = [];
  for (const ref of refs) {
    const key = versionKey(ref.id, ref.version);
    if (out.has(key)) continue;
    const cached = cachedVersion(deps, p, ref.id, ref.version);
    if (cached) out.set(key, cached);
    else missing.push(ref);
  }
  if (missing.length === 0) return out;
  const rows = new Map((await findTemplates(deps.db, p, [...new Set(missing.map((r) => r.id))])).map((r) => [r.id, r]));
  for (const ref of missing) {
    const key = versionKey(ref.id, ref.version);
    if (out.has(key)) continue;
    const row = rows.get(ref.id);
    const fields = row && (row.version === ref.version ? rememberTemplate(deps, row).fields : await loadArchived(deps, p, row, ref.version));
    if (fields) out.set(key, fields);
  }
  return out;
}

export function versionKey(id: string, version: number): string {
  return `${id}@${version}`;
}

/**
 * The fields of one version of a template, deleted or not: what a form made from that version reads.
 * Exact whatever the cache holds, because a version's fields never change: a cached entry of another
 * version (this process has not seen an edit yet, or the form is older) is simply not used.
 */
export async function loadTemplateVersion(deps: CacheDeps, p: Partition, id: string, version: number): Promise<FieldSet | undefined> {
  const cached = cachedVersion(deps, p, id, version);
  if (cached) return cached;
  const row = await findTemplate(deps.db, p, id);
  if (!row) return undefined;
  // A form of the template's current version (this process's entry was older, or not there).
  if (row.version === version) return rememberTemplate(deps, row).fields;
  return loadArchived(deps, p, row, version);
}

function cachedVersion(deps: CacheDeps, p: Partition, id: string, version: number): FieldSet | undefined {
  const hit = inPartition(current(deps, id), p);
  if (hit?.version === version) return hit.fields;
  const old = inPartition(deps.templateCache.get(versionKey(id, version)), p);
  return old?.id === id && old.version === version ? old.fields : undefined;
}

async function loadArchived(deps: CacheDeps, p: Partition, row: TemplateRow, version: number): Promise<FieldSet | undefined> {
  const archived = await findTemplateVersion(deps.db, p, row.id, version);
  if (!archived) return undefined;
  const t: CachedTemplate = {
    id: row.id, accountId: p.accountId, mode: p.mode, name: row.name, pdfKey: row.pdf_key, version,
    fields: fieldSet(archived.fields), json: '', deleted: row.deleted_at !== null, readAt: Number.POSITIVE_INFINITY,
  };
  deps.templateCache.set(versionKey(row.id, version), t);
  return t.fields;
}
