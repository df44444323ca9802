// Mixed-direction strings: Arabic and Hebrew with numbers, dates, phone numbers, parentheses, Latin
// words and e-mail addresses. One table for every test of right-to-left text: the sealed PDF
// (test/evidence/rtl-values*.test.ts) and the signing page.

export interface MixedDirectionCase {
  /** A short name for test titles. */
  name: string;
  /** The value as typed, in logical order. */
  text: string;
  script: 'arabic' | 'hebrew';
}

export const MIXED_DIRECTION: readonly MixedDirectionCase[] = [
  { name: 'Arabic street number', text: '12 شارع النخيل', script: 'arabic' },
  { name: 'Arabic date', text: 'تاريخ الميلاد 1987-03-25', script: 'arabic' },
  { name: 'Arabic phone', text: 'الهاتف +966 50 123 4567', script: 'arabic' },
  { name: 'Arabic parentheses', text: 'شقة (الطابق 3) مبنى 45', script: 'arabic' },
  { name: 'Arabic with Latin words', text: 'شركة Acme Trading للتجارة 2024', script: 'arabic' },
  { name: 'Arabic e-mail', text: 'البريد: sara.ali@example.com شكرا', script: 'arabic' },
  { name: 'Hebrew street number', text: 'רחוב הרצל 10', script: 'hebrew' },
  { name: 'Hebrew date', text: 'תאריך 15/03/2024 בשעה 09:30', script: 'hebrew' },
  { name: 'Hebrew phone', text: 'טלפון 03-1234567', script: 'hebrew' },
  { name: 'Hebrew parentheses', text: 'דירה 7 (קומה 2)', script: 'hebrew' },
  { name: 'Hebrew with Latin words', text: 'חברת Open Source בע"מ 2023', script: 'hebrew' },
  { name: 'Hebrew e-mail', text: 'דוא"ל david.cohen@example.co.il תודה', script: 'hebrew' },
];

/**
 * The runs inside `text` that read left to right whatever the paragraph's direction: each run of
 * digits, each Latin word or address. Whatever order the algorithm gives the runs, each keeps its
 * own characters in this order.
 */
export function leftToRightRuns(text: string): string[] {
  return text.match(/[0-9]+|[A-Za-z][A-Za-z.@]*[A-Za-z]/g) ?? [];
}
