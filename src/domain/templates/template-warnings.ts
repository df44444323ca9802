import type { FieldDef } from '../../pdf/index.js';

// A template's `warnings` say two kinds of thing. What the uploaded file held (scripts removed, push
// buttons skipped, an XFA part ignored) stays true of the file, which never changes. That the field
// list is empty is true only while it is: it is worked out here from the fields being written, by the
// import and by every edit of the fields, so the stored list always describes the current version
// (an edit in the builder that adds fields takes the upload's "no form fields" away).

/** An upload whose PDF has no form fields and that gave none. */
export const NO_FIELDS_UPLOADED = 'This PDF has no form fields, so forms made from it have nothing to fill. To add fields, upload it again '
  + 'with a `fields` part: a JSON array of field objects (name, type, page, x, y, width, height in PDF points from the '
  + "top-left corner of the page), for example [{\"name\":\"full_name\",\"type\":\"text\",\"page\":1,\"x\":72,\"y\":100,\"width\":200,\"height\":20}].";

/** A template whose fields were all removed by an edit. */
export const NO_FIELDS_EDITED = 'This template has no fields, so forms made from it have nothing to fill. Add fields in the dashboard\'s '
  + 'builder, or with PATCH /api/v1/templates/{id} and a `fields` array.';

const ABOUT_THE_FIELDS: ReadonlySet<string> = new Set([NO_FIELDS_UPLOADED, NO_FIELDS_EDITED]);

/** The warnings of a fresh upload: the file's, and one more if it ends up with no fields. */
export function importWarnings(fileWarnings: readonly string[], fields: readonly FieldDef[]): string[] {
  return fields.length === 0 ? [...fileWarnings, NO_FIELDS_UPLOADED] : [...fileWarnings];
}

/**
 * The warnings after the fields are replaced: the file's stay in their order; the empty-list warning
 * goes when there are fields, and is the edit's wording when an edit leaves none.
 */
export function editedWarnings(stored: readonly string[], fields: readonly FieldDef[]): string[] {
  const aboutTheFile = stored.filter((w) => !ABOUT_THE_FIELDS.has(w));
  return fields.length === 0 ? [...aboutTheFile, NO_FIELDS_EDITED] : aboutTheFile;
}
