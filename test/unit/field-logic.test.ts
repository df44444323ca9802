import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyFieldLogic, checkCondition, dependencyOrder, parseFormula } from '../../src/domain/forms/field-logic.js';
import { parseFieldDefs } from '../../src/domain/templates/field-rules.js';
import { AppError } from '../../src/domain/errors.js';

// The evaluator the server and the signing page share (issue 41): decimal formulas, conditions, the
// order fields are computed in, and the template rules that refuse what it cannot compute.

const compute = (formula: string, values: Record<string, string | number | boolean | null> = {}) =>
  applyFieldLogic([{ name: 'out', formula }, ...Object.keys(values).map((name) => ({ name }))], values).values['out'];

describe('formulas: decimal arithmetic', () => {
  it('adds, multiplies and divides in decimal, never binary floating point', () => {
    assert.equal(compute('a + b', { a: 0.1, b: 0.2 }), '0.3');
    assert.equal(compute('qty * price', { qty: 3, price: '19.99' }), '59.97');
    assert.equal(compute('1 / 3'), '0.333333333333');
    assert.equal(compute('10 / 4'), '2.5');
    assert.equal(compute('2 - 5 * 2'), '-8');
    assert.equal(compute('(2 - 5) * 2'), '-6');
    assert.equal(compute('-a', { a: 4 }), '-4');
    assert.equal(compute('1.005 * 1000'), '1005.000');
  });
  it('round keeps the digits asked for, half away from zero', () => {
    assert.equal(compute('round(a, 2)', { a: '2.345' }), '2.35');
    assert.equal(compute('round(a, 2)', { a: '-2.345' }), '-2.35');
    assert.equal(compute('round(a)', { a: '2.5' }), '3');
    assert.equal(compute('round(a, 2)', { a: 3 }), '3.00');
    assert.equal(compute('round(qty * price * 1.0825, 2)', { qty: 3, price: '19.99' }), '64.92');
  });
  it('sum, min and max skip empty inputs; + - * / with an empty input is empty; / 0 is empty', () => {
    assert.equal(compute('sum(a, b, c)', { a: 1, b: null, c: '2.50' }), '3.50');
    assert.equal(compute('sum(a)', { a: null }), '0');
    assert.equal(compute('min(a, b, c)', { a: 4, b: null, c: -1 }), '-1');
    assert.equal(compute('max(a, b)', { a: null, b: null }), null);
    assert.equal(compute('a + b', { a: 1, b: null }), null);
    assert.equal(compute('a + b', { a: 1, b: 'abc' }), null);
    assert.equal(compute('a / b', { a: 1, b: 0 }), null);
    assert.equal(compute('abs(a)', { a: -7.5 }), '7.5');
  });
  it('reads names with dots and brackets, and any name in braces', () => {
    assert.equal(compute('Page1[0].f1 + {Line 2 amount}', { 'Page1[0].f1': 2, 'Line 2 amount': 3 }), '5');
    const parsed = parseFormula('sum(line_1, line_2) * {tax rate}');
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.refs.sort(), ['line_1', 'line_2', 'tax rate']);
  });
  it('refuses what is not a formula, saying where, and runs no code', () => {
    const problems: Array<[string, RegExp]> = [
      ['', /empty/],
      ['a +', /ends too soon/],
      ['a b', /"b" at 3 is out of place/],
      ['alert(1)', /"alert" is not a function/],
      ['a; b', /";" at 2 is not allowed/],
      ['round()', /round\(\) takes/],
      ['(a + 1', /expected "\)"/],
      ['{a', /never closed/],
      ['x'.repeat(501), /longer than 500/],
      ['constructor.constructor("return 1")()', /not allowed|out of place|not a function/],
    ];
    for (const [text, problem] of problems) {
      const parsed = parseFormula(text);
      assert.equal(parsed.ok, false, text);
      assert.match((parsed as { problem: string }).problem, problem, text);
    }
  });
});

describe('conditions', () => {
  const fields = [
    { name: 'has_pet' },
    { name: 'pet_name', condition: { field: 'has_pet', equals: true } },
    { name: 'pet_vet', condition: { field: 'pet_name', not_empty: true as const } },
    { name: 'plan' },
    { name: 'seats', condition: { any: [{ field: 'plan', one_of: ['pro', 'team'] }, { field: 'plan', equals: 'custom' }] } },
    { name: 'discount', condition: { all: [{ field: 'plan', equals: 'team' }, { field: 'seats', not_empty: true as const }] } },
  ];
  it('hides a field while its condition does not hold and drops its value; hidden counts as empty for others', () => {
    const r = applyFieldLogic(fields, { has_pet: false, pet_name: 'Rex', pet_vet: 'Dr. Who', plan: 'basic', seats: 4, discount: 'x' });
    assert.deepEqual([...r.hidden].sort(), ['discount', 'pet_name', 'pet_vet', 'seats']);
    assert.equal(r.values['pet_name'], null);
    assert.equal(r.values['pet_vet'], null, 'pet_vet reads the hidden pet_name as empty');
    const shown = applyFieldLogic(fields, { has_pet: true, pet_name: 'Rex', plan: 'team', seats: 4 });
    assert.deepEqual([...shown.hidden], []);
    assert.equal(shown.values['pet_name'], 'Rex');
  });
  it('compares numbers as numbers and unticked boxes as false', () => {
    const f = [{ name: 'n' }, { name: 'x', condition: { field: 'n', equals: 3 } }, { name: 'b' }, { name: 'y', condition: { field: 'b', equals: false } }];
    assert.deepEqual([...applyFieldLogic(f, { n: '3.0', b: null }).hidden], []);
    assert.deepEqual([...applyFieldLogic(f, { n: 4, b: true }).hidden].sort(), ['x', 'y']);
  });
  it('refuses a condition of the wrong shape', () => {
    for (const [c, problem] of [
      [{ field: 'a' }, /exactly one of/],
      [{ field: 'a', equals: 1, one_of: [1] }, /exactly one of/],
      [{ field: 'a', like: 'x' }, /not a condition test/],
      [{ all: [] }, /non-empty list/],
      [{ field: 'a', not_empty: false }, /must be true/],
      [{ field: 'a', one_of: [{}] }, /one_of/],
      ['a', /must be an object/],
    ] as Array<[unknown, RegExp]>) {
      const checked = checkCondition(c);
      assert.equal(checked.ok, false, JSON.stringify(c));
      assert.match((checked as { problem: string }).problem, problem);
    }
  });
  it('orders fields after what they read and names a cycle', () => {
    const order = dependencyOrder([{ name: 'total', formula: 'sub + tax' }, { name: 'tax', formula: 'sub * 0.2' }, { name: 'sub' }]);
    assert.ok(order.ok);
    assert.deepEqual(order.order.map((f) => f.name), ['sub', 'tax', 'total']);
    const cycle = dependencyOrder([{ name: 'a', formula: 'b + 1' }, { name: 'b', condition: { field: 'c', not_empty: true } }, { name: 'c', formula: 'a' }]);
    assert.equal(cycle.ok, false);
    assert.deepEqual((cycle as { cycle: string[] }).cycle, ['a', 'b', 'c', 'a']);
  });
});

describe('template rules for conditions and formulas', () => {
  const box = { page: 1, x: 10, y: 10, width: 100, height: 20 };
  const refuse = (fields: unknown[], code: string, param: string, message: RegExp) => {
    assert.throws(() => parseFieldDefs(fields, 1), (e: unknown) => {
      assert.ok(e instanceof AppError);
      assert.equal(e.code, code);
      assert.equal(e.param, param);
      assert.match(e.message, message);
      return true;
    });
  };
  it('keeps a valid condition and formula', () => {
    const defs = parseFieldDefs([
      { name: 'qty', type: 'number', ...box },
      { name: 'total', type: 'number', formula: 'qty * 2', ...box },
      { name: 'note', type: 'text', condition: { field: 'qty', not_empty: true }, ...box },
    ], 1);
    assert.equal(defs[1]!.formula, 'qty * 2');
    assert.deepEqual(defs[2]!.condition, { field: 'qty', not_empty: true });
  });
  it('refuses a formula on a field that is not a number, a bad formula, unknown or self references and cycles', () => {
    refuse([{ name: 't', type: 'text', formula: '1', ...box }], 'parameter_invalid', 'fields[0].formula', /Only number fields/);
    refuse([{ name: 't', type: 'number', formula: '1 +', ...box }], 'parameter_invalid', 'fields[0].formula', /The formula is not valid/);
    refuse([{ name: 't', type: 'number', formula: 'nope * 2', ...box }], 'template_invalid', 'fields[0].formula', /reads 'nope', which is not a field/);
    refuse([{ name: 't', type: 'number', formula: 't + 1', ...box }], 'template_invalid', 'fields[0].formula', /reads the field itself/);
    refuse([{ name: 's', type: 'signature', ...box }, { name: 't', type: 'number', formula: 's + 1', ...box }], 'template_invalid', 'fields[1].formula', /a signature field, which holds no number/);
    refuse([{ name: 'a', type: 'number', formula: 'b', ...box }, { name: 'b', type: 'number', formula: 'a', ...box }], 'template_invalid', 'fields[0]', /'a' depends on itself: a → b → a/);
    refuse([{ name: 'a', type: 'text', condition: { field: 'zz', equals: 'x' }, ...box }], 'template_invalid', 'fields[0].condition', /reads 'zz'/);
    refuse([{ name: 'a', type: 'text', condition: { field: 'a', equals: 'x' }, ...box }], 'template_invalid', 'fields[0].condition', /reads the field itself/);
    refuse([{ name: 'a', type: 'text', condition: { field: 'a' }, ...box }], 'parameter_invalid', 'fields[0].condition', /The condition needs exactly one of/);
  });
});
