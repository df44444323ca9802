// One place that decides what a radio group's or choice field's options are called, so the
// inspector's FieldDef.options and the renderer's selection always agree.
import type { PDFDropdown, PDFOptionList, PDFRadioGroup } from '@cantoo/pdf-lib';
import { pairOptions, readableName, type OptionChoice } from './option-text.js';

export function radioChoices(field: PDFRadioGroup): OptionChoice[] {
  const raw = field.getOptions();
  // /Opt export values are text strings and decode fine; otherwise the options are the widgets'
  // appearance-state names, whose bytes need guessing.
  const readable = field.acroField.getExportValues() ? raw : field.acroField.getOnValues().map(readableName);
  return pairOptions(raw, readable);
}

/** For choice fields `readable` is the export value and `raw` the display text pdf-lib selects by. */
export function selectChoices(field: PDFDropdown | PDFOptionList): OptionChoice[] {
  const opts = field.acroField.getOptions();
  const raw = opts.map(({ display, value }) => (display ?? value).decodeText());
  const exportValues = opts.map(({ value }) => value.decodeText());
  const seen = new Set<string>();
  const out: OptionChoice[] = [];
  raw.forEach((r, i) => {
    const readable = exportValues[i] ?? r;
    if (readable === '' || seen.has(readable)) return;
    seen.add(readable);
    out.push({ readable, raw: r });
  });
  return out;
}

/** Finds the option a value names, by its readable form first, then pdf-lib's raw text. */
export function findChoice(choices: readonly OptionChoice[], value: string): OptionChoice | undefined {
  return choices.find((c) => c.readable === value) ?? choices.find((c) => c.raw === value);
}
