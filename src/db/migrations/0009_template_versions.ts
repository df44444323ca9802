import { sql, type Kysely } from 'kysely';

/**
 * Editable templates whose forms keep the fields they were made with:
 * - `templates.version` counts field edits (1 at import); `templates.deleted_at` marks a deleted
 *   template. A deleted template's row stays, because its forms still read their fields from it and
 *   their sealed audit trail names its file's SHA-256; the API no longer finds it.
 * - `forms.template_version`: the version a form was made from (null for forms made before 0009, when
 *   every template was at version 1). A form still refers to immutable fields rather than copying
 *   them, so creating a form writes no more than before and an edit costs one row, not one per form.
 * - `template_versions`: the fields of every version a template has moved past, written by the edit
 *   that replaces them.
 * - The list index now covers live templates only (partial), so deleted ones cost a list nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('templates').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('templates').addColumn('deleted_at', 'text').execute();
  await db.schema.alterTable('forms').addColumn('template_version', 'integer').execute();
  await db.schema
    .createTable('template_versions')
    .addColumn('template_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('template_versions_pk', ['template_id', 'version'])
    .execute();
  await db.schema.dropIndex('templates_list_idx').execute();
  await db.schema
    .createIndex('templates_list_idx')
    .on('templates')
    // deleted_at (always null in it) makes the index cover the list query's `deleted_at is null`.
    .columns(['account_id', 'mode', 'created_at', 'id', 'deleted_at'])
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('templates_list_idx').execute();
  await db.schema.createIndex('templates_list_idx').on('templates').columns(['account_id', 'mode', 'created_at', 'id']).execute();
  await db.schema.dropTable('template_versions').execute();
  await db.schema.alterTable('forms').dropColumn('template_version').execute();
  await db.schema.alterTable('templates').dropColumn('deleted_at').execute();
  await db.schema.alterTable('templates').dropColumn('version').execute();
}
