// Fields the caller did not fill may still hold values without appearance streams (forms saved
// with /NeedAppearances true rely on the viewer to draw them). Before that flag is cleared, those
// fields get appearances too.
import {
  PDFCheckBox, PDFDict, PDFDropdown, PDFName, PDFOptionList, PDFRadioGroup, PDFTextField,
  type PDFField, type PDFForm,
} from '@cantoo/pdf-lib';
import type { DocumentFonts } from './fonts.js';

function lacksNormalAppearance(field: PDFField): boolean {
  return field.acroField.getWidgets().some((w) => !(w.dict.lookup(PDFName.of('AP')) instanceof PDFDict)
    || !w.getAppearances()?.normal);
}

/** Returns false when some field could not get an appearance, so the viewer must still draw it. */
export async function completeMissingAppearances(form: PDFForm, skip: ReadonlySet<PDFField>, fonts: DocumentFonts): Promise<boolean> {
  let complete = true;
  for (const field of form.getFields()) {
    if (skip.has(field)) continue;
    try {
      if (field instanceof PDFCheckBox || field instanceof PDFRadioGroup) {
        if (field.needsAppearancesUpdate()) field.updateAppearances();
      } else if (field instanceof PDFTextField) {
        const text = field.getText() ?? '';
        if (text !== '' && lacksNormalAppearance(field)) field.updateAppearances(await fonts.forText(text));
      } else if (field instanceof PDFDropdown || field instanceof PDFOptionList) {
        const shown = field instanceof PDFDropdown ? field.getSelected().join(' ') : field.getOptions().join(' ');
        if (field.getSelected().length > 0 && lacksNormalAppearance(field)) field.updateAppearances(await fonts.forText(shown));
      }
    } catch {
      // Odd fields (rich text, broken /MK) keep whatever they had; the viewer will draw them.
      complete = false;
    }
  }
  return complete;
}
