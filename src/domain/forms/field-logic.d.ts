// Types of field-logic.js (plain JavaScript so the signing page can load the same file).
import type { FieldCondition, FieldDef, FieldValue } from '../../pdf/field.js';

type LogicField = Pick<FieldDef, 'name' | 'condition' | 'formula'>;
export interface Decimal { n: bigint; s: number }
export type FormulaAst = { readonly k: string };

export const MAX_FORMULA_CHARS: number;
export function decimalText(a: Decimal): string;
export function parseFormula(text: unknown): { ok: true; ast: FormulaAst; refs: string[] } | { ok: false; problem: string };
export function checkCondition(condition: unknown): { ok: true; refs: string[] } | { ok: false; problem: string };
export function dependencyOrder<F extends LogicField>(fields: readonly F[]): { ok: true; order: F[] } | { ok: false; cycle: string[] };
export function applyFieldLogic(
  fields: readonly LogicField[],
  values: Readonly<Record<string, FieldValue>>,
): { values: Record<string, FieldValue>; hidden: Set<string> };
export type { FieldCondition };
