// Types of value-rules.js (plain JavaScript so the signing page can load the same file).
import type { FieldDef, FieldValue } from '../../pdf/field.js';

type RuleField = Pick<FieldDef, 'name' | 'type' | 'label' | 'options' | 'max_length'>;
export type ValueCheck = { ok: true; value: FieldValue } | { ok: false; problem: string };

export const MAX_VALUE_CHARS: number;
export const UNPREFILLABLE_TYPES: ReadonlySet<string>;
export function isPrefillable(field: { type: string; formula?: string | null | undefined }): boolean;
export function unprefillableProblem(field: { type: string; formula?: string | null | undefined }): string;
export function isCalendarDate(s: string): boolean;
export function isEmailAddress(s: unknown): boolean;
export function isPhoneNumberText(s: unknown): boolean;
export function checkFieldValue(field: RuleField, raw: unknown): ValueCheck;
export function missingProblem(field: Pick<FieldDef, 'type'>): string;
export function fieldWords(field: Pick<FieldDef, 'name' | 'label'>): string;
