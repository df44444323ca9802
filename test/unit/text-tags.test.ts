import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TextPiece } from '../../src/pdf/inspect/page-text.js';
import { fieldsFromTags, findTextTags, parseTextTag } from '../../src/pdf/inspect/text-tags.js';

// Text tags (issue 41): the grammar of one tag, tags found across the pieces a PDF writer splits a
// line into, slots given to role names in order, and every tag that cannot be read reported.

/** Pieces laid left to right on one line at `y`, 6 points a character. */
function line(y: number, ...strs: string[]): TextPiece[] {
  let x = 72;
  return strs.map((str, i) => {
    const left = x;
    x += str.length * 6;
    return { str, eol: i === strs.length - 1, boxOf: (from: number, to: number) => ({ left: left + from * 6, right: left + to * 6, top: y, bottom: y + 12 }) };
  });
}

describe('text tag grammar', () => {
  it('reads the name first, then settings', () => {
    assert.deepEqual(parseTextTag('tenant_sign;type=signature;role=Tenant;required;w=180;h=36'), { name: 'tenant_sign', type: 'signature', required: true, role: 'Tenant', width: 180, height: 36 });
    assert.deepEqual(parseTextTag(' pets ; type=select ; options=Yes | No '), { name: 'pets', type: 'select', required: false, options: ['Yes', 'No'] });
    assert.deepEqual(parseTextTag('имя;role=2'), { name: 'имя', type: 'text', required: false, role: '2' });
  });
  it('says what is wrong with a tag it cannot read', () => {
    for (const [inner, problem] of [
      ['', /names no field/],
      ['type=text', /names no field/],
      ['x;type=banana', /"banana" is not a field type/],
      ['x;colour=red', /"colour" is not a setting/],
      ['x;type=select', /needs options/],
      ['x;options=A|B', /only radio and select/],
      ['x;w=wide', /size in points/],
      ['x;role=', /needs a value/],
      ['x;required=no', /flag/],
      ['x;type=text;type=date', /given twice/],
      ['x;role=0', /starts at 1/],
    ] as Array<[string, RegExp]>) {
      const parsed = parseTextTag(inner);
      assert.ok('problem' in parsed, inner);
      assert.match(parsed.problem, problem, inner);
    }
  });
});

describe('finding tags and making fields', () => {
  it('finds a tag split over several pieces and boxes it where its characters are', () => {
    const pages = new Map([[1, [...line(100, 'Rent: {{re', 'nt;type=num', 'ber}}'), ...line(130, 'no tag here')]]]);
    const { tags, unread } = findTextTags(pages);
    assert.deepEqual(unread, []);
    assert.equal(tags.length, 1);
    assert.equal(tags[0]!.text, '{{rent;type=number}}');
    assert.deepEqual(tags[0]!.box, { left: 72 + 6 * 6, right: 72 + 26 * 6, top: 100, bottom: 112 });
    assert.deepEqual(tags[0]!.cover, { left: 72 + 5 * 6, right: 72 + 26 * 6, top: 100, bottom: 112 }, 'the blank before it too');
  });
  it('reports braces no tag accounts for (a tag across lines, a line stored in visual order)', () => {
    const { tags, unread } = findTextTags(new Map([[2, [...line(100, 'Name {{first'), ...line(120, 'name}}'), ...line(140, '}}الاسم{{')]]]));
    assert.equal(tags.length, 0);
    assert.deepEqual(unread.map((u) => [u.page, u.text]), [[2, 'Name {{first'], [2, 'name}}'], [2, '}}الاسم{{']]);
    const made = fieldsFromTags(tags, new Set(), unread);
    assert.equal(made.warnings.length, 3);
    assert.match(made.warnings[0]!, /page 2 looks like a text tag but could not be read/);
  });
  it('gives role names slots in the order they appear, around numbered slots; renames a repeated name; warns on a bad tag', () => {
    const box = { left: 10, right: 60, top: 10, bottom: 22 };
    const tag = (text: string, page = 1) => ({ page, text, box, cover: box });
    const made = fieldsFromTags([
      tag('{{a;role=Landlord}}'), tag('{{b;role=1}}'), tag('{{c;role=Tenant}}'), tag('{{d;role=landlord;type=signature}}'), tag('{{a}}', 2), tag('{{bad;type=zzz}}', 3),
    ], new Set(['b']));
    assert.deepEqual(made.fields.map((f) => [f.name, f.signer, f.type]), [['a', 2, 'text'], ['b_2', 1, 'text'], ['c', 3, 'text'], ['d', 2, 'signature'], ['a_2', 1, 'text']]);
    assert.deepEqual(made.roles, [{ slot: 2, role: 'Landlord' }, { slot: 3, role: 'Tenant' }]);
    assert.equal(made.fields[3]!.width, 120, 'a signature box is at least 120 × 30 points');
    assert.equal(made.fields[3]!.height, 30);
    assert.equal(made.fields[0]!.label, 'A');
    assert.equal(made.warnings.length, 3);
    assert.match(made.warnings[0]!, /repeats the field name "b": this one is named "b_2"/);
    assert.match(made.warnings[2]!, /Text tag \{\{bad;type=zzz\}\} on page 3 was not read: "zzz" is not a field type/);
  });
});
