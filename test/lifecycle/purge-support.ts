import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { sql } from 'kysely';
import { PURGE_PLAN } from '../../src/db/repositories/form-purge.js';
import type { Actor, Harness } from '../harness.js';
import { S3rver, S3RVER_CREDENTIALS, type S3rverServer } from '../shared/s3rver.js';
import { SIGN_HEADERS, TINY_PNG } from '../signing/support.js';
import { createAndSend, tokenOf, untilSigned, type FormBody } from './support.js';

// Deleting forms (issue 40): a restartable S3 store, the markers a purged form must not leave anywhere,
// and the grep over every text column of every table the schema has.

export const BUCKET = 'formsign-purge';

/** An s3rver that can be stopped and started again on the same port and directory (the store "down"). */
export class RestartableS3 {
  private server: S3rverServer | undefined;
  port = 0;
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-purge-s3-'));
  async start(): Promise<void> {
    this.server = new S3rver({ address: '127.0.0.1', port: this.port, directory: this.dir, silent: true, vhostBuckets: false });
    this.port = (await this.server.run()).port;
  }
  async stop(): Promise<void> {
    await this.server?.close();
    this.server = undefined;
  }
  async createBucket(): Promise<void> {
    const admin = new S3Client({ endpoint: this.endpoint, region: 'us-east-1', credentials: S3RVER_CREDENTIALS, forcePathStyle: true });
    await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
    admin.destroy();
  }
  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  env(): Record<string, string> {
    return { S3_ENDPOINT: this.endpoint, S3_BUCKET: BUCKET, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId, S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey };
  }
  async close(): Promise<void> {
    await this.stop().catch(() => undefined);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Values that belong to one person and one form only, so finding one anywhere means the purge missed it. */
export function markersOf(tag: string) {
  return {
    tenantName: `Zyx${tag} Tenantname`,
    landlordName: `Qwv${tag} Landlordname`,
    metadata: `meta-${tag}-secret`,
    emailA: `ada.${tag}@purge.example`,
    emailB: `bo.${tag}@purge.example`,
    nameA: `Ada${tag} Person`,
    nameB: `Bo${tag} Person`,
    userAgent: `PurgeBrowser/${tag}`,
  };
}
export type Markers = ReturnType<typeof markersOf>;

/** A form made from the two-signer template with the markers in its values, metadata and recipients, signed and sealed. */
export async function signedMarkedForm(h: Harness, as: Actor, templateId: string, m: Markers, clock: { advance(ms: number): void }): Promise<FormBody> {
  const created = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId, prefill: { tenant_name: m.tenantName }, metadata: { case: m.metadata } } });
  assert.equal(created.status, 201, created.body);
  const id = created.json<{ id: string }>().id;
  const sent = await h.request({
    method: 'POST', url: `/api/v1/forms/${id}/send`, as,
    json: { recipients: [{ email: m.emailA, channel: 'email', name: m.nameA }, { email: m.emailB, channel: 'email', name: m.nameB }] },
  });
  assert.equal(sent.status, 200, sent.body);
  const form = sent.json<FormBody>();
  await signAs(h, tokenOf(form.recipients[0]!.signing_url), { tenant_name: m.tenantName, tenant_signature: { image: TINY_PNG, method: 'drawn' } }, m.userAgent);
  await signAs(h, tokenOf(form.recipients[1]!.signing_url), { landlord_name: m.landlordName, landlord_signature: { image: TINY_PNG, method: 'typed' } }, m.userAgent);
  const signed = await untilSigned(h, as, id, clock);
  assert.equal(signed.status, 'signed');
  return signed;
}

export { createAndSend };

async function signAs(h: Harness, token: string, values: Record<string, unknown>, userAgent: string): Promise<void> {
  const view = await h.app.inject({ method: 'GET', url: `/sign/${token}`, headers: { 'user-agent': userAgent, accept: 'text/html' } });
  assert.equal(view.statusCode, 200, view.body.slice(0, 200));
  const res = await h.app.inject({ method: 'POST', url: `/sign/${token}`, headers: { 'content-type': 'application/json', 'user-agent': userAgent, ...SIGN_HEADERS }, payload: JSON.stringify({ values, consent: true }) });
  assert.equal(res.statusCode, 200, res.body);
}

/** Every table of the database and its text columns, read from the schema itself (new tables and columns are covered by themselves). */
export async function textColumns(h: Harness): Promise<Map<string, string[]>> {
  const db = h.deps.database.db;
  const out = new Map<string, string[]>();
  if (h.dialect === 'sqlite') {
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(db);
    for (const { name } of tables.rows) {
      const cols = await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${name})`.execute(db);
      out.set(name, cols.rows.filter((c) => /text|char|clob/i.test(c.type)).map((c) => c.name));
    }
  } else {
    const cols = await sql<{ table_name: string; column_name: string }>`
      select c.table_name, c.column_name from information_schema.columns c join information_schema.tables t
        on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE' and c.data_type in ('text', 'character varying', 'json', 'jsonb')
        and c.table_name not like 'kysely_%'`.execute(db);
    for (const r of cols.rows) out.set(r.table_name, [...(out.get(r.table_name) ?? []), r.column_name]);
  }
  return out;
}

/** Where each marker still appears: `table.column` per marker, over every text column of every table. */
export async function grepDatabase(h: Harness, markers: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  const db = h.deps.database.db;
  for (const [table, cols] of await textColumns(h)) {
    for (const col of cols) {
      for (const marker of markers) {
        const hit = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(col)} like ${`%${marker}%`}`.execute(db);
        if (Number(hit.rows[0]?.n ?? 0) > 0) found.push(`${table}.${col}: ${marker}`);
      }
    }
  }
  return found;
}

/** The tables the schema has that PURGE_PLAN does not name (each must say what a purge does to it). */
export async function tablesWithoutPurgeRule(h: Harness): Promise<string[]> {
  const planned = new Set(Object.keys(PURGE_PLAN));
  return [...(await textColumns(h)).keys()].filter((t) => !planned.has(t)).sort();
}

/** Every key the file store holds. */
export async function allBlobKeys(h: Harness): Promise<string[]> {
  return (await h.deps.domain.blobs.list('')).map((b) => b.key).sort();
}
