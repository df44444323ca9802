import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { SIGN_HEADERS, sampleTemplate, sendTo } from './support.js';
import { loadedFaceIds, MAX_CACHED_GLYPHS } from '../../src/pdf/signature-style/index.js';
import { STYLE_REQUESTS_PER_MINUTE } from '../../src/domain/signing/signature-styles.js';

// Adopt a signature (issue 43 item 7): POST /sign/<token>/signature-styles draws the typed name in its
// script's three styles as glyph outlines (Latin, Arabic shaped and joined, Hebrew, CJK), refuses what
// is not a name with the contract's error shape, and answers nothing once the link is closed.

interface Style { id: string; face: string; d: string; width: number; height: number }
interface Styles { script: string; styles: Style[] }

/** The path's subpaths (one per contour): a glyph has at least one. */
const contours = (d: string): number => (d.match(/M/g) ?? []).length;

for (const dialect of DIALECTS) {
  describe(`signature styles (${dialect})`, () => {
    let h: Harness;
    let token: string;
    before(async () => {
      h = await createHarness(dialect);
      const templateId = await sampleTemplate(h, h.actors.aTest.partition);
      token = (await sendTo(h, h.actors.aTest, templateId, ['styles@example.com'])).tokens[0]!;
    });
    after(() => h.close());

    const ask = (payload: unknown, headers: Record<string, string> = SIGN_HEADERS) =>
      h.app.inject({ method: 'POST', url: `/sign/${token}/signature-styles`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

    it('draws a Latin, an Arabic, a Hebrew and a Chinese name in three styles each, as outlines', async () => {
      const expected: Record<string, [string, string[]]> = {
        'Ada Lovelace': ['latin', ['dancing', 'kaushan', 'kristi']],
        'محمد عبد الله': ['arabic', ['amiri', 'amiri-slanted', 'lateef']],
        'דוד כהן': ['hebrew', ['shofar', 'keter', 'hadasim']],
        '山田太郎': ['cjk', ['wenkai', 'ukai', 'klee']],
      };
      for (const [text, [script, ids]] of Object.entries(expected)) {
        const res = await ask({ text });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['cache-control'], 'no-store');
        const body = res.json<Styles>();
        assert.equal(body.script, script, text);
        assert.deepEqual(body.styles.map((s) => s.id), ids, text);
        const letters = [...text.replace(/\s/g, '')].length;
        for (const s of body.styles) {
          assert.match(s.d, /^M[\d. ]+[LQCZ]/, `${s.id}: path data`);
          // Every letter has at least one contour (Arabic ligatures join letters, but never to fewer than half).
          assert.ok(contours(s.d) >= letters / 2, `${s.id}: ${contours(s.d)} contours for ${letters} letters`);
          assert.ok(s.width > s.height && s.height > 20, `${s.id}: a line of writing, ${s.width}×${s.height}`);
        }
        // Three styles, three different drawings.
        assert.equal(new Set(body.styles.map((s) => s.d)).size, ids.length, text);
      }
    });

    it('Arabic is shaped, not drawn as isolated letters: the joined name is narrower than its letters one by one', async () => {
      const joined = (await ask({ text: 'محمد' })).json<Styles>().styles[0]!;
      const isolated = (await ask({ text: 'م ح م د' })).json<Styles>().styles[0]!;
      assert.ok(joined.width < isolated.width * 0.7, `joined ${joined.width} vs isolated ${isolated.width}`);
    });

    it('a name none of the script\'s faces has (Cyrillic) gets the plain face that has it', async () => {
      const body = (await ask({ text: 'Иван Петров' })).json<Styles>();
      assert.deepEqual(body.styles.map((s) => s.id), ['dejavu-serif-italic']);
      assert.ok(contours(body.styles[0]!.d) >= 10);
    });

    it('refuses what is not a name with the contract\'s error, and a request from elsewhere', async () => {
      const cases: Array<[unknown, string, RegExp]> = [
        [{}, 'parameter_invalid', /text must be the name/],
        [{ text: '   ' }, 'parameter_invalid', /must not be empty/],
        [{ text: 'x'.repeat(81) }, 'parameter_invalid', /at most 80 characters/],
        [{ text: 'Ada\nLovelace' }, 'parameter_invalid', /one line/],
        [{ text: 'Ada', size: 3 }, 'parameter_unknown', /size/],
        // No face draws these: refused before any fallback face is parsed.
        [{ text: 'Ada \uD800' }, 'parameter_invalid', /no typeface draws/],
        [{ text: 'Ada \u{E000}' }, 'parameter_invalid', /no typeface draws/],
        [{ text: 'Ada \u{50000}' }, 'parameter_invalid', /no typeface draws/],
      ];
      for (const [payload, code, message] of cases) {
        const res = await ask(payload);
        assert.equal(res.statusCode, 400, res.body);
        const { error } = res.json<{ error: { code: string; message: string; request_id: string } }>();
        assert.equal(error.code, code);
        assert.match(error.message, message);
        assert.ok(error.request_id);
        assert.equal((error as { param?: string }).param, code === 'parameter_invalid' ? 'text' : 'size');
      }
      const foreign = await ask({ text: 'Ada' }, {});
      assert.equal(foreign.statusCode, 400);
      assert.match(foreign.json<{ error: { message: string } }>().error.message, /missing its page header/);
    });

    it('a name no CJK name needs the big faces for leaves them unparsed; an uncovered letter loads only the plain ones', async () => {
      const before = new Set(loadedFaceIds());
      const body = (await ask({ text: 'Ada \u{13000}' })).json<Styles>(); // an Egyptian hieroglyph: no face has it
      assert.deepEqual(body.styles, []);
      const loadedNow = loadedFaceIds().filter((id) => !before.has(id));
      assert.ok(loadedNow.every((id) => !id.startsWith('noto-')), `loaded ${loadedNow.join(', ')}`);
    });

    it('a face is dropped (and parsed again) once it has built more than MAX_CACHED_GLYPHS glyphs', async () => {
      // Names in Latin Extended, Greek and Cyrillic letters with a Cyrillic one first: DejaVu Serif
      // Italic draws those it has every letter of; past the bound in distinct letters it is forgotten.
      const letters = [...Array(0x530 - 0x100).keys()].map((i) => String.fromCodePoint(0x100 + i)).filter((c) => /\p{L}/u.test(c));
      const drawn = new Set<string>();
      let dropped = false;
      const templateId = await sampleTemplate(h, h.actors.aTest.partition);
      let link = '';
      for (let i = 0; i < letters.length && !dropped; i += 5) {
        // A link draws STYLE_REQUESTS_PER_MINUTE names a minute: a new one for each such share.
        if (i % (5 * STYLE_REQUESTS_PER_MINUTE) === 0) link = (await sendTo(h, h.actors.aTest, templateId, [`glyphs${i}@example.com`])).tokens[0]!;
        const chunk = ['Я', ...letters.slice(i, i + 5)];
        const res = await h.app.inject({ method: 'POST', url: `/sign/${link}/signature-styles`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: JSON.stringify({ text: chunk.join('') }) });
        assert.equal(res.statusCode, 200, res.body);
        if (res.json<Styles>().styles[0]?.id === 'dejavu-serif-italic') chunk.forEach((c) => drawn.add(c));
        if (!loadedFaceIds().includes('dejavu-serif-italic')) dropped = true;
      }
      assert.ok(dropped, `${drawn.size} letters drawn, bound ${MAX_CACHED_GLYPHS}`);
      assert.ok(drawn.size > MAX_CACHED_GLYPHS * 0.9, `dropped only after ${drawn.size} letters`);
      // Parsed again on its next use, drawing as before.
      const again = (await ask({ text: 'Иван' })).json<Styles>();
      assert.deepEqual(again.styles.map((s) => s.id), ['dejavu-serif-italic']);
      assert.ok(loadedFaceIds().includes('dejavu-serif-italic'));
    });

    it('throttles one signing link past its share a minute, with Retry-After, and not another link', async () => {
      const templateId = await sampleTemplate(h, h.actors.aTest.partition);
      const busy = (await sendTo(h, h.actors.aTest, templateId, ['busy@example.com'])).tokens[0]!;
      const post = (t: string, text: string) => h.app.inject({ method: 'POST', url: `/sign/${t}/signature-styles`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: JSON.stringify({ text }) });
      for (let i = 0; i < STYLE_REQUESTS_PER_MINUTE; i++) assert.equal((await post(busy, 'Ada')).statusCode, 200);
      const refused = await post(busy, 'Ada');
      assert.equal(refused.statusCode, 429, refused.body);
      assert.equal(refused.json<{ error: { code: string } }>().error.code, 'rate_limited');
      assert.match(refused.json<{ error: { message: string } }>().error.message, /at most 60 times a minute/);
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      assert.equal((await post(token, 'Ada')).statusCode, 200);
    });

    it('an unknown link is 404, and a signed one draws nothing more', async () => {
      const unknown = await h.app.inject({ method: 'POST', url: `/sign/${'A'.repeat(43)}/signature-styles`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: '{"text":"Ada"}' });
      assert.equal(unknown.statusCode, 404);
      const templateId = await sampleTemplate(h, h.actors.aTest.partition);
      const { tokens } = await sendTo(h, h.actors.aTest, templateId, ['declines@example.com']);
      const declined = await h.app.inject({ method: 'POST', url: `/sign/${tokens[0]}/decline`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: '{}' });
      assert.equal(declined.statusCode, 200, declined.body);
      const after = await h.app.inject({ method: 'POST', url: `/sign/${tokens[0]}/signature-styles`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: '{"text":"Ada"}' });
      assert.equal(after.statusCode, 409, after.body);
      assert.equal(after.json<{ error: { code: string } }>().error.code, 'form_not_sendable');
    });
  });
}
