// Which bundled face draws a value: the first, in the order the value's script suggests, that has a
// glyph for every character of it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PDFDocument } from '@cantoo/pdf-lib';
import { chooseFace, DocumentFonts, hanStyleOf } from '../../src/pdf/fill/fonts.js';
import { inkIn, pdfToText, qpdfCheck } from './support/fixtures.js';

// First, before any other test lays out Latin text in DejaVu Sans: the bug it guards against depends on
// which document first asked the shared font for a glyph.
describe('text stays extractable in every document that shares a parsed font', () => {
  it('a glyph first seen as part of another (o in ó) still maps back to its character later', async () => {
    const draw = async (line: string) => {
      const doc = await PDFDocument.create();
      const fonts = new DocumentFonts(doc);
      doc.addPage([600, 200]).drawText(line, { font: await fonts.forText(line), size: 18, x: 40, y: 100 });
      return pdfToText(await doc.save());
    };
    // Saving a subset with ó makes fontkit load its component o without a character.
    assert.ok((await draw('Łódź')).includes('Łódź'));
    const later = await draw('Zoo Łódź, an owl');
    assert.ok(later.includes('Zoo Łódź, an owl'), JSON.stringify(later));
  });
});

describe('chooseFace', () => {
  const cases: Array<[string, string]> = [
    ['Zürich, Œuvre – “quoted” €5', 'helvetica'],
    ['Łódź', 'dejavu-sans'],
    ['Ελληνικά and Привет', 'dejavu-sans'],
    ['العربية', 'dejavu-sans'],
    ['ひらがなとカタカナ', 'noto-sans-jp'],
    ['日本語のテキスト', 'noto-sans-jp'],
    ['简体中文', 'noto-sans-sc'],
    ['山田太郎', 'noto-sans-jp'],
    ['東京都千代田区', 'noto-sans-jp'],
    ['한국어', 'noto-sans-kr'],
    ['한국어 漢字 and Latin', 'noto-sans-kr'],
  ];
  for (const [text, face] of cases) {
    it(`${text} → ${face}`, async () => assert.equal(await chooseFace(text), face));
  }

  it('Han alone follows the document: Japanese, Chinese or Korean', async () => {
    assert.equal(await chooseFace('繁體中文', 'ja'), 'noto-sans-jp');
    assert.equal(await chooseFace('繁體中文', 'zh'), 'noto-sans-sc');
    assert.equal(await chooseFace('高崎', 'zh'), 'noto-sans-sc');
    assert.equal(await chooseFace('漢字', 'ko'), 'noto-sans-kr');
    // Kana or Hangul in the value itself win over the document.
    assert.equal(await chooseFace('山田です', 'zh'), 'noto-sans-jp');
    assert.equal(await chooseFace('漢字 한국어', 'ja'), 'noto-sans-kr');
  });

  it('the document’s Han style: its /Lang, else kana or Hangul in any value, else Japanese', () => {
    assert.equal(hanStyleOf('zh-CN', ['山田です']), 'zh');
    assert.equal(hanStyleOf('ko', []), 'ko');
    assert.equal(hanStyleOf('JA-jp', []), 'ja');
    assert.equal(hanStyleOf('en-US', ['北京', '한국어']), 'ko');
    assert.equal(hanStyleOf(undefined, ['北京', 'カタカナ']), 'ja');
    assert.equal(hanStyleOf(undefined, ['北京']), 'ja');
    assert.equal(hanStyleOf('zhx', ['北京']), 'ja', 'only a real language tag counts');
  });

  it('a mix no face covers goes to the face that covers most of it', async () => {
    // Noto Sans KR has no 简; Noto Sans Hans has no Hangul: more of this is Hangul.
    assert.equal(await chooseFace('한국어 한국어 简'), 'noto-sans-kr');
    assert.equal(await chooseFace('简体中文 简体 한'), 'noto-sans-sc');
  });
});

describe('bundled faces embed as subsets that readers can extract', () => {
  it('each script comes back out of the PDF as text', async () => {
    const doc = await PDFDocument.create();
    const fonts = new DocumentFonts(doc);
    const page = doc.addPage([600, 400]);
    const lines = ['Łódź Ελληνικά', '日本語のテキスト', '简体中文', '한국어'];
    for (const [i, line] of lines.entries()) page.drawText(line, { font: await fonts.forText(line), size: 18, x: 40, y: 340 - i * 40 });
    const out = await doc.save();
    const check = qpdfCheck(out);
    assert.equal(check.status, 0, check.output);
    const text = pdfToText(out);
    for (const line of lines) assert.ok(text.includes(line), `${line} in ${JSON.stringify(text)}`);
    // And each line is really painted (baseline at 400 - (340 - 40 i) from the top, 18 pt glyphs).
    for (const [i, line] of lines.entries()) {
      const ink = inkIn(out, 1, { x: 40, y: 60 + i * 40 - 18, width: 300, height: 26 });
      assert.ok(ink > 150, `${line} paints ${ink} dark pixels`);
    }
    assert.equal(inkIn(out, 1, { x: 40, y: 225, width: 300, height: 100 }), 0, 'below the lines the page is blank');
    // Subsets: the whole CJK fonts are several megabytes each.
    assert.ok(out.length < 400_000, `${out.length} bytes`);
  });
});

describe('values that need more than one face', () => {
  it('draws each word in the main face when it has all of it, else in the first face that does', async () => {
    const fonts = new DocumentFonts(await PDFDocument.create());
    const mixed = await fonts.forValue('Łukasz 田中太郎');
    assert.equal(mixed.mixed, true);
    const runs = mixed.runs('Łukasz 田中太郎').map((r) => [r.font.name.replace(/-\d+$/, ''), r.text]);
    // A word keeps one face: all of "Łukasz" comes from DejaVu Sans, which has every letter of it.
    assert.deepEqual(runs, [['DejaVuSans', 'Łukasz'], ['NotoSansJP-Regular', ' 田中太郎']]);
    assert.deepEqual(mixed.extraFonts.map((f) => f.name.replace(/-\d+$/, '')), ['DejaVuSans']);
    const width = mixed.widthOfTextAtSize('Łukasz', 10);
    const byRuns = mixed.runs('Łukasz').reduce((w, r) => w + r.font.widthOfTextAtSize(r.text, 10), 0);
    assert.equal(width, byRuns);
    for (const single of ['Zürich', '日本語', 'Ελληνικά']) assert.equal((await fonts.forValue(single)).mixed, false, single);
  });

  it('measures pieces so that they add up to the line they make', async () => {
    const fonts = new DocumentFonts(await PDFDocument.create());
    const text = 'Çağrı Ünlü 様 東京都千代田区 İzmir Muğla Iğdır Ağrı ğ ğ 　田中';
    const value = await fonts.forValue(text);
    assert.equal(value.mixed, true);
    // Split the way line breaking does: spaces, and each CJK character on its own.
    const pieces = text.match(/\s+|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f]|[^\s\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f]+/gu)!;
    const sum = pieces.reduce((w, piece) => w + value.widthOfTextAtSize(piece, 10), 0);
    assert.ok(Math.abs(sum - value.widthOfTextAtSize(text, 10)) < 0.05, `${sum} vs ${value.widthOfTextAtSize(text, 10)}`);
  });
});

