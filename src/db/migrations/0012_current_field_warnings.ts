import type { Kysely } from 'kysely';

/**
 * Templates edited before the warnings followed the fields: an upload with no form fields was told
 * so in `warnings`, and the warning stayed after fields were added (in the builder or by PATCH). It
 * is taken away from every template that has fields now; the file's own warnings stay. From here on
 * the import and every edit of the fields write the warnings of the current fields
 * (domain/templates/template-warnings.ts).
 *
 * The sentence is matched by its start as it was written, not through the domain's constant: a
 * migration describes the data as it stood, and the db layer does not import the domain.
 */
const NO_FIELDS_START = 'This PDF has no form fields, so forms made from it have nothing to fill.';

interface Row {
  id: string;
  warnings: string;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const d = db as unknown as Kysely<{ templates: Row & { fields: string } }>;
  const stale = await d
    .selectFrom('templates')
    .select(['id', 'warnings'])
    .where('warnings', 'like', `%${NO_FIELDS_START}%`)
    .where('fields', '<>', '[]')
    .execute();
  for (const row of stale) {
    const kept = (JSON.parse(row.warnings) as string[]).filter((w) => !w.startsWith(NO_FIELDS_START));
    await d.updateTable('templates').set({ warnings: JSON.stringify(kept) }).where('id', '=', row.id).execute();
  }
}

/** Nothing to undo: the warning removed was untrue of those templates. */
export async function down(): Promise<void> {}
