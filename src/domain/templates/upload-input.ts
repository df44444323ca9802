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

/**
 * The upload's optional `name` and `fields` parts: the name checked, the fields parsed from JSON. A NUL
 * in either is refused as the JSON routes refuse it (PATCH's validation): the multipart parts are the
 * one text that reaches the domain without passing it, and SQLite would store what PostgreSQL refuses.
 */
export function uploadParts(text: Readonly<Record<string, string | undefined>>): { name: string | undefined; fields: unknown } {
  for (const part of ['name', 'fields']) {
    if (text[part]?.includes('\u0000')) throw new AppError('parameter_invalid', `${part} must not contain the NUL character (U+0000).`, part);
  }
  const name = text['name'] === undefined ? undefined : checkTemplateName(text['name']);
  let fields: unknown;
  if (text['fields'] !== undefined) {
    let nul = false;
    try {
      // The reviver sees every key and value: a NUL written as the escape \u0000 inside the JSON text.
      fields = JSON.parse(text['fields'], (key: string, value: unknown) => {
        if (key.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000'))) nul = true;
        return value;
      });
    } catch {
      throw new AppError('parameter_invalid', 'fields must be a JSON array of field objects.', 'fields');
    }
    if (nul) throw new AppError('parameter_invalid', 'fields must not contain the NUL character (U+0000).', 'fields');
  }
  return { name, fields };
}
