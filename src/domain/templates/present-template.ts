import type { TemplateRow } from '../../db/tables.js';
import type { components } from '../../generated/api.js';
import type { FieldDef } from '../../pdf/field.js';
import { json, parseJson, str, type Json } from '../json.js';

export type TemplateView = components['schemas']['Template'];

/**
 * The Template object as JSON text. `fields` and `warnings` are stored as JSON we wrote ourselves, so
 * they are spliced in as they are: no parse and re-stringify on the list path.
 */
export function templateJson(t: TemplateRow): Json<TemplateView> {
  return json(
    `{"object":"template","id":${str(t.id)},"name":${str(t.name)},"mode":${str(t.mode)},"page_count":${t.page_count},` +
      `"fields":${t.fields},"signer_count":${t.signer_count},"signers":${t.signers},"warnings":${t.warnings},` +
      `"created_at":${str(t.created_at)},"updated_at":${str(t.updated_at)}}`,
  );
}

export function presentTemplate(t: TemplateRow): TemplateView {
  return parseJson(templateJson(t));
}

// The PDF layer's FieldDef and the contract's Field must stay one shape: this fails to compile if
// either side changes without the other.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _fieldShapeMatchesContract: Same<FieldDef, components['schemas']['Field']> = true;
