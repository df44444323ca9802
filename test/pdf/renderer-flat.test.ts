// Rendering details: flat templates (fields given as JSON) get their values drawn in the right
// place, fonts are embedded as subsets, and untouched AcroForm fields stay as they were.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodePDFRawStream, degrees, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRadioGroup, PDFRef, PDFTextField } from '@cantoo/pdf-lib';
import { detectTemplate } from '../../src/pdf/inspect/detect-template.js';
import { radioChoices } from '../../src/pdf/shared/field-options.js';
import { type FieldDef } from '../../src/pdf/index.js';
import { createPdfRenderer } from '../../src/pdf/fill/index.js';
import { blankGlyphsShown, pdfToText, qpdfCheck, readFixture, wordBoxes } from './support/fixtures.js';

const renderer = createPdfRenderer();
const def = (name: string, type: FieldDef['type'], page: number, x: number, y: number, width: number, height: number, extra: Partial<FieldDef> = {}): FieldDef =>
  ({ name, type, required: false, signer: 1, page, x, y, width, height, ...extra });

async function flatTemplate(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  const shifted = doc.addPage([612, 792]);
  // A MediaBox that does not start at 0,0 (as cropped scans often have).
  shifted.setMediaBox(50, 100, 500, 600);
  const turned = doc.addPage([612, 792]);
  turned.setRotation(degrees(90));
  return doc.save();
}

const FIELDS: FieldDef[] = [
  def('city', 'text', 1, 72, 100, 200, 20),
  def('notes', 'text', 1, 72, 140, 250, 60, { multiline: true }),
  def('agree', 'checkbox', 1, 72, 220, 14, 14),
  def('colour', 'select', 1, 72, 250, 150, 20, { options: ['Ελληνικά', 'Other'] }),
  def('sign_here', 'signature', 1, 72, 300, 200, 40),
  def('untouched', 'text', 1, 72, 360, 200, 20),
  def('kanji', 'text', 2, 100, 100, 150, 24),
  def('turned', 'text', 3, 72, 72, 300, 20),
];

function inside(boxes: ReturnType<typeof wordBoxes>, word: string, f: FieldDef): void {
  const box = boxes.find((b) => b.word === word);
  assert.ok(box, `"${word}" is on a page`);
  const slack = 1;
  assert.ok(box.xMin >= f.x - slack && box.xMax <= f.x + f.width + slack && box.yMin >= f.y - slack && box.yMax <= f.y + f.height + slack,
    `"${word}" ${JSON.stringify(box)} lies inside ${f.name} ${JSON.stringify([f.x, f.y, f.width, f.height])}`);
}

interface TextFieldSpec {
  name: string;
  rect: { x: number; y: number; width: number; height: number };
  /** The producer's /DA (its font size, 0 for auto). */
  da: string;
  multiline?: boolean;
  /** Comb cells (and MaxLen). */
  comb?: number;
}

/** A one-page AcroForm of text fields, imported as a template. */
async function textFieldTemplate(specs: TextFieldSpec[]) {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const form = doc.getForm();
  for (const spec of specs) {
    const f = form.createTextField(spec.name);
    if (spec.multiline) f.enableMultiline();
    if (spec.comb) {
      f.setMaxLength(spec.comb);
      f.enableCombing();
    }
    f.addToPage(page, spec.rect);
    f.acroField.setDefaultAppearance(spec.da);
  }
  return detectTemplate(await doc.save());
}

describe('flat templates', () => {
  it('draws each value inside its rectangle, on offset and rotated pages too', async () => {
    const out = await renderer.render(await flatTemplate(), FIELDS, {
      city: 'Łódź', notes: 'Привет, это многострочный текст для проверки переноса строк', agree: true,
      colour: 'Ελληνικά', sign_here: 'MUST-NOT-APPEAR', kanji: '日本語', turned: 'Sideways',
    });
    assert.equal(qpdfCheck(out).status, 0);
    assert.equal((await PDFDocument.load(out)).catalog.getAcroForm(), undefined, 'a flat PDF stays flat');
    const text = pdfToText(out);
    for (const s of ['Łódź', 'Привет,', '✓', 'Ελληνικά', '日本語', 'Sideways']) assert.ok(text.includes(s), `${s} is drawn`);
    assert.ok(!text.includes('MUST-NOT-APPEAR'));
    const byPage = (page: number) => wordBoxes(out).filter((b) => b.page === page);
    inside(byPage(1), 'Łódź', FIELDS[0]!);
    inside(byPage(1), 'Привет,', FIELDS[1]!);
    inside(byPage(1), '✓', FIELDS[2]!);
    inside(byPage(1), 'Ελληνικά', FIELDS[3]!);
    inside(byPage(2), '日本語', FIELDS[6]!);
    inside(byPage(3), 'Sideways', FIELDS[7]!);
    const sideways = byPage(3).find((b) => b.word === 'Sideways');
    assert.ok(sideways && sideways.xMax - sideways.xMin > 2 * (sideways.yMax - sideways.yMin), 'reads upright on the turned page');
  });

  it('wraps multiline CJK text inside its box and shrinks text too long for it', async () => {
    const jp = def('jp_notes', 'text', 1, 72, 100, 120, 60, { multiline: true });
    const long = def('long_notes', 'text', 1, 72, 300, 150, 40, { multiline: true });
    const japanese = '日本語のテキストはスペースなしで長く続きます。これも同じです。';
    const english = 'This answer goes on for much longer than the small box that the form gives it on the page. '.repeat(2);
    const out = await renderer.render(await flatTemplate(), [jp, long], { jp_notes: japanese, long_notes: english });
    assert.equal(qpdfCheck(out).status, 0);
    const boxes = wordBoxes(out).filter((b) => b.page === 1);
    const within = (f: FieldDef) => boxes.filter((b) => b.yMin >= f.y - 20 && b.yMax <= f.y + f.height + 40);
    for (const f of [jp, long]) {
      const words = within(f);
      assert.ok(words.length > 0, `${f.name} is drawn`);
      for (const b of words) inside([b], b.word, f);
    }
    // Everything is there, in order (pdftotext may space CJK lines differently).
    const squeeze = (t: string) => t.replace(/\s+/g, '');
    assert.ok(squeeze(pdfToText(out, '-raw')).includes(squeeze(japanese)));
    assert.ok(squeeze(pdfToText(out, '-raw')).includes(squeeze(english)));
  });

  it('draws Han-only values as Chinese in a document whose /Lang is Chinese, as Japanese otherwise', async () => {
    const baseFonts = async (lang: string | undefined) => {
      const doc = await PDFDocument.load(await flatTemplate());
      if (lang) doc.setLanguage(lang);
      const out = await renderer.render(await doc.save(), FIELDS, { kanji: '東京都' });
      const loaded = await PDFDocument.load(out);
      return loaded.context.enumerateIndirectObjects()
        .flatMap(([, o]) => (o instanceof PDFDict && o.lookup(PDFName.of('Type')) === PDFName.of('Font') ? [String(o.lookup(PDFName.of('BaseFont')))] : []));
    };
    assert.ok((await baseFonts('zh-CN')).some((f) => f.includes('NotoSansHans')), 'Chinese face');
    assert.ok((await baseFonts(undefined)).some((f) => f.includes('NotoSansJP')), 'Japanese face');
  });

  it('embeds subsets, not whole font files', async () => {
    const out = await renderer.render(await flatTemplate(), FIELDS, { city: 'Łódź', kanji: '日本語' });
    const doc = await PDFDocument.load(out);
    // TrueType outlines are embedded as FontFile2, CFF (the OpenType .otf faces) as FontFile3.
    const fontFiles = doc.context.enumerateIndirectObjects()
      .map(([, o]) => (o instanceof PDFDict ? (o.lookup(PDFName.of('FontFile2')) ?? o.lookup(PDFName.of('FontFile3'))) : undefined))
      .filter((o): o is PDFRawStream => o instanceof PDFRawStream);
    assert.equal(fontFiles.length, 2, 'DejaVu Sans and Noto Sans JP');
    // The full files are 757 KB and 5.5 MB.
    for (const f of fontFiles) assert.ok(f.contents.length < 60_000, `a subset is a few KiB, got ${f.contents.length}`);
  });
});

describe('AcroForm details', () => {
  it('leaves fields without a value as they were, and clears fields set to null', async () => {
    const t = await detectTemplate(readFixture('openoffice_form_example.pdf'));
    const out = await renderer.render(t.pdf, t.fields, { firstName: 'Zoë', lastName: null });
    const form = (await PDFDocument.load(out)).getForm();
    const before = (await PDFDocument.load(t.pdf)).getForm();
    assert.equal(form.getTextField('firstName').getText(), 'Zoë');
    assert.equal(form.getTextField('lastName').getText(), undefined);
    assert.equal(form.getTextField('yearsOfExperience').getText(), '6');
    assert.equal(form.getTextField('otherJobExperience').getText(), before.getTextField('otherJobExperience').getText());
  });

  it('selects the JLPT radio by its readable option and keeps the original export name', async () => {
    const t = await detectTemplate(readFixture('jlpt_application_2025_ja.pdf'));
    const radio = t.fields.find((f) => f.type === 'radio');
    assert.ok(radio);
    const out = await renderer.render(t.pdf, t.fields, { [radio.name]: '選択内容3' });
    const field = (await PDFDocument.load(out)).getForm().getField(radio.name);
    assert.ok(field instanceof PDFRadioGroup);
    assert.equal(radioChoices(field).find((c) => c.raw === field.getSelected())?.readable, '選択内容3');
    assert.match(field.getSelected() ?? '', /e3$/, 'the stored name is the original byte string');
  });

  it('rejects a value that is not an option instead of writing it', async () => {
    const t = await detectTemplate(readFixture('openoffice_form_example.pdf'));
    await assert.rejects(renderer.render(t.pdf, t.fields, { educationLevel: 'phd' }), /not an option/);
  });

  it('cuts text to /MaxLen and gives multiline fields an explicit font size', async () => {
    const t = await detectTemplate(readFixture('cdc_icar_ltc_assessment.pdf'));
    const multi = t.fields.find((f) => f.multiline);
    assert.ok(multi);
    const out = await renderer.render(t.pdf, t.fields, { [multi.name]: 'Short answer' });
    const field = (await PDFDocument.load(out)).getForm().getField(multi.name);
    assert.ok(field instanceof PDFTextField);
    const size = Number(/([\d.]+)\s+Tf/.exec(field.acroField.getDefaultAppearance() ?? '')?.[1]);
    assert.ok(size > 0 && size <= 12, `font size ${size}`);

    const oo = await detectTemplate(readFixture('openoffice_form_example.pdf'));
    const cut = await renderer.render(oo.pdf, oo.fields, { firstName: 'x'.repeat(100) });
    assert.equal((await PDFDocument.load(cut)).getForm().getTextField('firstName').getText(), 'x'.repeat(40));
  });

  it('shrinks a fixed-size single line that would not fit, so no part of it is clipped', async () => {
    const t = await textFieldTemplate([
      { name: 'narrow', rect: { x: 72, y: 600, width: 90, height: 20 }, da: '/Helv 12 Tf 0 g' },
      { name: 'roomy', rect: { x: 72, y: 500, width: 400, height: 20 }, da: '/Helv 12 Tf 0 g' },
    ]);
    const long = 'Ελληνικά and a long tail 42';
    const out = await renderer.render(t.pdf, t.fields, { narrow: long, roomy: 'Short' });
    const filled = (await PDFDocument.load(out)).getForm();
    const sizeOf = (name: string) => Number(/([\d.]+)\s+Tf\s*$/.exec(filled.getTextField(name).acroField.getDefaultAppearance() ?? '')?.[1] ?? 12);
    assert.ok(sizeOf('narrow') < 12 && sizeOf('narrow') >= 4, `narrow field shrunk to ${sizeOf('narrow')} pt`);
    assert.equal(sizeOf('roomy'), 12, 'a value that fits keeps the producer’s size');
    const text = pdfToText(out);
    assert.ok(text.includes(long), `the whole value is drawn: ${JSON.stringify(text)}`);
    // pdftotext reports clipped text too, so check where each word lies, not only that it is there.
    const narrowRect = def('narrow', 'text', 1, 72, 792 - 600 - 20, 90, 20);
    const words = wordBoxes(out).filter((b) => long.includes(b.word));
    assert.equal(words.map((b) => b.word).join(' '), long);
    for (const b of words) inside([b], b.word, narrowRect);
    assert.equal(qpdfCheck(out).status, 0);
  });

  it('measures a rotated widget along its text, so a fitting value keeps its size', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([792, 612]);
    const field = doc.getForm().createTextField('sideways');
    // Tall and thin on the page, read bottom to top: 251 pt of room for the text.
    field.addToPage(page, { x: 72, y: 100, width: 251, height: 21, rotate: degrees(90) });
    const rect = field.acroField.getWidgets()[0]!.getRectangle();
    assert.ok(rect.width < 30 && rect.height > 240, `pdf-lib turns the rectangle: ${JSON.stringify(rect)}`);
    field.acroField.setDefaultAppearance('/Helv 12 Tf 0 g');
    const t = await detectTemplate(await doc.save());
    const out = await renderer.render(t.pdf, t.fields, { sideways: 'Jane Q. Public' });
    const acroField = (await PDFDocument.load(out)).getForm().getTextField('sideways').acroField;
    const da = acroField.getWidgets()[0]!.getDefaultAppearance() ?? acroField.getDefaultAppearance() ?? '';
    assert.equal(Number(/([\d.]+)\s+Tf\s*$/.exec(da)?.[1]), 12, da);
  });

  it('wraps multiline CJK values inside the field and shrinks text too long for the box; the value stays as given', async () => {
    const rects = { jp: { x: 72, y: 600, width: 120, height: 60 }, en: { x: 72, y: 400, width: 150, height: 40 } };
    // jp is auto-sized, en has the producer's 10 pt.
    const t = await textFieldTemplate([
      { name: 'jp', rect: rects.jp, da: '/Helv 0 Tf 0 g', multiline: true },
      { name: 'en', rect: rects.en, da: '/Helv 10 Tf 0 g', multiline: true },
    ]);
    const values = {
      jp: '日本語のテキストはスペースなしで長く続きます。これも同じです。',
      en: 'This answer goes on for much longer than the small box that the form gives it on the page. '.repeat(2).trim(),
    };
    const out = await renderer.render(t.pdf, t.fields, values);
    assert.equal(qpdfCheck(out).status, 0);
    const filled = (await PDFDocument.load(out)).getForm();
    for (const [name, value] of Object.entries(values)) assert.equal(filled.getTextField(name).getText(), value, `${name} keeps its value`);
    // Every word on the page lies inside its own field's box (pdftotext reports clipped text too).
    const boxes = wordBoxes(out);
    for (const [name, r] of Object.entries(rects)) {
      const top = 792 - r.y - r.height;
      const f = def(name, 'text', 1, r.x, top, r.width, r.height);
      const words = boxes.filter((b) => (name === 'jp' ? /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}/u : /^[A-Za-z.]+$/).test(b.word));
      assert.ok(new Set(words.map((b) => b.yMin)).size > 1, `${name} is drawn on several lines`);
      for (const b of words) inside([b], b.word, f);
    }
    const squeezed = pdfToText(out, '-raw').replace(/\s+/g, '');
    for (const value of Object.values(values)) assert.ok(squeezed.includes(value.replace(/\s+/g, '')), value);
  });

  it('keeps the last line\'s descenders inside the field\'s padding when multiline text is shrunk to fit', async () => {
    // Sizes where the lines' pitch alone just fits used to let g, j, p, q and y dip into the padding.
    const helvetica = await (await PDFDocument.create()).embedFont('Helvetica');
    for (const height of [31, 37, 44, 52, 61]) {
      const t = await textFieldTemplate([{ name: 'notes', rect: { x: 72, y: 500, width: 140, height }, da: '/Helv 0 Tf 0 g', multiline: true }]);
      const out = await renderer.render(t.pdf, t.fields, { notes: 'gypsy jiggly pygmy quay; '.repeat(6).trim() });
      const doc = await PDFDocument.load(out);
      const ap = doc.getForm().getTextField('notes').acroField.getWidgets()[0]!.getNormalAppearance();
      const stream = doc.context.lookup(ap as PDFRef);
      assert.ok(stream instanceof PDFRawStream);
      const ops = Buffer.from(decodePDFRawStream(stream).decode()).toString();
      // The text area is the clipping path pdf-lib draws inside the border and padding.
      const clip = /([\d.]+) ([\d.]+) m\n[\d.]+ [\d.]+ l\n[\d.]+ [\d.]+ l\n[\d.]+ [\d.]+ l\nh\nW/.exec(ops);
      assert.ok(clip, ops);
      const size = Number(/\/Helvetica ([\d.]+) Tf/.exec(ops)?.[1]);
      const baselines = [...ops.matchAll(/1 0 0 1 [\d.]+ (-?[\d.]+) Tm/g)].map((m) => Number(m[1]));
      assert.ok(baselines.length >= 2, `height ${height}: several lines (${baselines.length})`);
      const descent = helvetica.heightAtSize(size) - helvetica.heightAtSize(size, { descender: false });
      const lowest = Math.min(...baselines) - descent;
      assert.ok(lowest >= Number(clip[2]) - 0.01,
        `height ${height}: ${baselines.length} lines at ${size} pt: the descenders reach ${lowest.toFixed(2)}, below the text area's bottom ${clip[2]}`);
    }
  });

  it('sizes each widget of a field shown twice for its own box', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const field = doc.getForm().createTextField('name_twice');
    field.addToPage(page, { x: 72, y: 600, width: 90, height: 20 });
    field.addToPage(page, { x: 72, y: 500, width: 400, height: 20 });
    field.acroField.setDefaultAppearance('/Helv 12 Tf 0 g');
    const t = await detectTemplate(await doc.save());
    const value = 'Ελληνικά, a value wider than the narrow box';
    const out = await renderer.render(t.pdf, t.fields, { name_twice: value });
    const acroField = (await PDFDocument.load(out)).getForm().getTextField('name_twice').acroField;
    // A widget's own /DA, else the field's, as viewers read it.
    const sizes = acroField.getWidgets().map((w) => Number(/([\d.]+)\s+Tf\s*$/.exec(w.getDefaultAppearance() ?? acroField.getDefaultAppearance() ?? '')?.[1]));
    assert.ok(sizes[0]! < 12, `the narrow widget shrinks (${sizes[0]} pt)`);
    assert.equal(sizes[1], 12, 'the wide widget keeps 12 pt');
    assert.equal(pdfToText(out).split(value).length - 1, 2, 'the whole value shows in both places');
  });

  it('draws values that mix scripts no one face covers, run by run, in fields and on flat pages', async () => {
    const t = await textFieldTemplate([
      { name: 'single', rect: { x: 72, y: 700, width: 300, height: 22 }, da: '/Helv 0 Tf 0 g' },
      { name: 'multi', rect: { x: 72, y: 580, width: 160, height: 80 }, da: '/Helv 0 Tf 0 g', multiline: true },
    ]);
    const values = { single: 'Łukasz 田中太郎', multi: 'İstanbul Çağlayan, 東京都千代田区丸の内一丁目', flat: 'Gdańsk 北京市 한국어' };
    const flat = def('flat', 'text', 1, 72, 400, 250, 30);
    const out = await renderer.render(t.pdf, [...t.fields, flat], values);
    assert.equal(qpdfCheck(out).status, 0);
    const loaded = await PDFDocument.load(out);
    // Every field value keeps its text.
    for (const name of ['single', 'multi'] as const) assert.equal(loaded.getForm().getTextField(name).getText(), values[name]);
    // The Latin letters the CJK faces lack come from DejaVu Sans: each appearance lists both fonts.
    for (const name of ['single', 'multi']) {
      const widget = loaded.getForm().getTextField(name).acroField.getWidgets()[0]!;
      const stream = loaded.context.lookup(widget.getNormalAppearance() as PDFRef) as PDFRawStream;
      const fonts = stream.dict.lookup(PDFName.of('Resources'), PDFDict).lookup(PDFName.of('Font'), PDFDict);
      const names = fonts.keys().map((k) => k.asString());
      assert.ok(names.some((n) => n.includes('DejaVuSans')) && names.some((n) => n.includes('NotoSansJP')), `${name}: ${names.join(', ')}`);
    }
    const text = pdfToText(out, '-raw').replace(/\s+/g, '');
    for (const value of Object.values(values)) assert.ok(text.includes(value.replace(/\s+/g, '')), value);
    // Runs follow each other on the line, in order.
    const boxes = wordBoxes(out);
    const at = (word: string) => boxes.find((b) => b.word === word)!;
    assert.ok(at('Łukasz').xMax <= at('田中太郎').xMin + 1, 'Łukasz then 田中太郎');
    assert.ok(at('Gdańsk').xMax <= at('北京市').xMin + 1 && at('北京市').xMax <= at('한국어').xMin + 1, 'flat runs in order');
  });

  it('never shows a blank glyph for a character some bundled face has, however pdf-lib cuts the text', async () => {
    const da = '/Helv 8 Tf 0 g';
    const t = await textFieldTemplate([
      // Narrow enough that pdf-lib would re-cut lines measured differently from ours.
      { name: 'narrow_multi', rect: { x: 72, y: 600, width: 53, height: 120 }, da, multiline: true },
      { name: 'single_cr', rect: { x: 72, y: 560, width: 300, height: 20 }, da },
      { name: 'spaces', rect: { x: 72, y: 530, width: 300, height: 20 }, da },
      { name: 'comb', rect: { x: 72, y: 500, width: 160, height: 20 }, da, comb: 8 },
    ]);
    const flat = def('flat_tab', 'text', 1, 72, 420, 300, 20);
    const values = {
      narrow_multi: 'Çağrı Ünlü 様 東京都千代田区丸の内一丁目二番三号 İzmir Muğla Iğdır Ağrı ğ ğ ğ',
      single_cr: 'Ağrı\r東京\fŁódź',
      spaces: '\u3000田中 Łódź\u2009都 1\u202f234 Ł',
      comb: 'Łu田中太郎',
      flat_tab: 'Gdańsk\t北京市 ğ',
    };
    const out = await renderer.render(t.pdf, [...t.fields, flat], values);
    assert.equal(qpdfCheck(out).status, 0);
    assert.equal(await blankGlyphsShown(out), 0);
    const filled = (await PDFDocument.load(out)).getForm();
    assert.equal(filled.getTextField('single_cr').getText(), 'Ağrı 東京 Łódź', 'a single line holds no line breaks');
    const text = pdfToText(out, '-raw').replace(/\s+/g, '');
    for (const ch of 'ğıİŁźÇÜ様東') assert.ok(text.includes(ch), ch);
    // The tab is drawn as spaces and the runs after it do not overlap it.
    const boxes = wordBoxes(out);
    const gdansk = boxes.find((b) => b.word === 'Gdańsk')!;
    const beijing = boxes.find((b) => b.word.startsWith('北京'))!;
    assert.ok(gdansk.xMax + 8 < beijing.xMin, `a tab's width between ${JSON.stringify(gdansk)} and ${JSON.stringify(beijing)}`);
  });

  it('draws dropdown and list-box choices that mix scripts run by run too', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const form = doc.getForm();
    const options = ['Łukasz 田中', 'İstanbul 東京', 'Plain'];
    const dropdown = form.createDropdown('city');
    dropdown.addOptions(options);
    dropdown.addToPage(page, { x: 72, y: 600, width: 200, height: 22 });
    const list = form.createOptionList('cities');
    list.addOptions(options);
    list.addToPage(page, { x: 72, y: 450, width: 200, height: 80 });
    for (const f of [dropdown, list]) f.acroField.setDefaultAppearance('/Helv 10 Tf 0 g');
    const t = await detectTemplate(await doc.save());
    const out = await renderer.render(t.pdf, t.fields, { city: 'Łukasz 田中', cities: 'İstanbul 東京' });
    assert.equal(qpdfCheck(out).status, 0);
    assert.equal(await blankGlyphsShown(out), 0);
    const text = pdfToText(out, '-raw');
    for (const option of ['Łukasz 田中', 'İstanbul 東京']) assert.ok(text.includes(option), `${option} in ${JSON.stringify(text)}`);
  });
});

