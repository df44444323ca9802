import { AppError } from '../errors.js';

// What a person sends with a template (the API's multipart parts, the dashboard's upload, an edit's
// name), checked by one piece for every caller. Lengths in code points, as OpenAPI counts them.

export const TEMPLATE_NAME_MAX = 200;

/** A template's name: text of 1 to 200 characters once trimmed. */
export function checkTemplateName(input: unknown, param = 'name'): string {
  const name = typeof input === 'string' ? input.trim() : '';
  if (name.length === 0 || [...name].length > TEMPLATE_NAME_MAX) {
    throw new AppError('parameter_invalid', `name must be a string of 1 to ${TEMPLATE_NAME_MAX} characters, not only spaces.`, param);
  }
  return name;
}

/** The upload's optional `name` and `fields` parts: the name checked, the fields parsed from JSON. */
export function uploadParts(text: Readonly<Record<string, string | undefined>>): { name: string | undefined; fields: unknown } {
  const name = text['name'] === undefined ? undefined : checkTemplateName(text['name']);
  let fields: unknown;
  if (text['fields'] !== undefined) {
    try {
      fields = JSON.parse(text['fields']);
    } catch {
      throw new AppError('parameter_invalid', 'fields must be a JSON array of field objects.', 'fields');
    }
  }
  return { name, fields };
}
