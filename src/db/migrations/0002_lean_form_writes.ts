import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * Makes creating a form cheap to write (measured in bench/: most of its cost was B-tree pages dirtied
 * by random ids and large rows):
 * - `forms.fields` becomes optional. A form made from a template reads the template's fields
 *   (templates are immutable), so creating one no longer copies them; only a form with fields of its
 *   own (a generated one) stores them. Existing copies are identical and still read.
 * - `events` stores a snapshot of the form row instead of the whole rendered body: the body is the
 *   snapshot plus the form's immutable field definitions, so nothing is lost and a row is a quarter of
 *   the size. Events are found through their form (`form_created_at, form_id`) instead of a primary key
 *   on their random id: the index then grows at its end, as forms are created, instead of at a random
 *   page for every event.
 * - An event is its own publication entry (`published_at`, null until the webhook publisher has fanned
 *   it out; a partial index finds the pending ones), replacing the `event.publish` job that was written
 *   beside every event. Pending `event.publish` jobs are dropped: their events are pending instead.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    // Kysely runs SQLite migrations outside a transaction; the rebuild must not stop half way.
    await db.transaction().execute(async (trx) => {
      await rebuildFormsForSqlite(trx);
      await rebuildEvents(trx);
    });
    return;
  }
  await sql`alter table forms alter column fields drop not null`.execute(db);
  await rebuildEvents(db);
}

// SQLite cannot drop NOT NULL in place: the documented create-copy-drop-rename.
async function rebuildFormsForSqlite(db: Kysely<unknown>): Promise<void> {
  await sql`create table forms_next (
    id text primary key,
    account_id text not null references accounts (id),
    mode text not null,
    status text not null,
    name text,
    template_id text,
    fields text,
    "values" text not null,
    metadata text not null,
    pdf_key text not null,
    expires_in_days integer not null,
    created_at text not null,
    updated_at text not null,
    sent_at text,
    completed_at text,
    expires_at text
  )`.execute(db);
  await sql`insert into forms_next select id, account_id, mode, status, name, template_id, fields, "values", metadata, pdf_key, expires_in_days, created_at, updated_at, sent_at, completed_at, expires_at from forms`.execute(db);
  await sql`drop table forms`.execute(db);
  await sql`alter table forms_next rename to forms`.execute(db);
  await db.schema.createIndex('forms_list_idx').on('forms').columns(['account_id', 'mode', 'created_at', 'id']).execute();
  await db.schema.createIndex('forms_status_idx').on('forms').columns(['account_id', 'mode', 'status', 'created_at']).execute();
}

interface OldEvent {
  id: string;
  account_id: string;
  mode: string;
  type: string;
  form_id: string;
  data: string;
  created_at: string;
}

interface OldFormView {
  id: string;
  mode: string;
  status: string;
  name: string | null;
  template_id: string | null;
  fields: Array<{ name: string; value: unknown }>;
  created_at: string;
  sent_at: string | null;
  completed_at: string | null;
  expires_at: string | null;
  metadata: Record<string, string>;
}

async function rebuildEvents(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('events_next')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull())
    .addColumn('form_created_at', 'text', (c) => c.notNull())
    .addColumn('form', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('published_at', 'text')
    .execute();
  // Old rows hold the rendered body; the snapshot is its form without the field definitions (the
  // values are the fields' values), in the shape formSnapshot writes.
  const old = await sql<OldEvent>`select id, account_id, mode, type, form_id, data, created_at from events`.execute(db);
  for (const e of old.rows) {
    const f = (JSON.parse(e.data) as { data: { object: OldFormView } }).data.object;
    const values = Object.fromEntries(f.fields.filter((x) => x.value !== null).map((x) => [x.name, x.value]));
    const snapshot = {
      id: f.id, mode: f.mode, status: f.status, name: f.name, template_id: f.template_id,
      created_at: f.created_at, sent_at: f.sent_at, completed_at: f.completed_at, expires_at: f.expires_at,
      values, metadata: f.metadata,
    };
    await sql`insert into events_next (id, account_id, mode, type, form_id, form_created_at, form, created_at)
      values (${e.id}, ${e.account_id}, ${e.mode}, ${e.type}, ${e.form_id}, ${f.created_at}, ${JSON.stringify(snapshot)}, ${e.created_at})`.execute(db);
  }
  await db.schema.dropTable('events').execute();
  await sql`alter table events_next rename to events`.execute(db);
  await db.schema.createIndex('events_form_idx').on('events').columns(['account_id', 'mode', 'form_created_at', 'form_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('events_unpublished_idx').on('events').column('created_at').where(sql.ref('published_at'), 'is', null).execute();
  // No worker has run yet: every event is still to be published, which published_at null now says.
  await sql`delete from outbox where kind = 'event.publish'`.execute(db);
}
