// Conditional fields and formulas (issue 41): the one evaluator the server and the signing page both
// run. Plain JavaScript with no imports so the page loads this very file as an ES module (served by
// src/http/pages/sign) and the server imports it as is; its types are in field-logic.d.ts. No `eval`,
// no `Function`: formulas are parsed by the small grammar below and computed in decimal arithmetic
// (BigInt with a scale), so 0.1 + 0.2 is 0.3 and money adds up as on paper.
//
// A condition: {field, equals: v} | {field, one_of: [v…]} | {field, not_empty: true} | {all: [c…]} |
// {any: [c…]}. A field with a condition is shown, and its `required` applies, only while it holds; a
// hidden field's value counts as empty everywhere (other conditions, formulas) and is dropped.
//
// A formula (number fields): numbers, field names, + - * /, parentheses and the functions sum, min,
// max, abs and round(x, digits). A field name is letters, digits, _ . [ ] (starting with a letter or _),
// or any name in braces: {Line 1 amount}. An empty or non-numeric input makes + - * / empty; sum, min
// and max skip empty inputs. Division by zero is empty, never an error on the page.

export const MAX_FORMULA_CHARS = 500;
/** Digits kept after the point by a division (other operations are exact). */
const DIVISION_SCALE = 12;
const FUNCTIONS = new Set(['sum', 'min', 'max', 'abs', 'round']);
const MAX_CONDITION_DEPTH = 8;
const MAX_CONDITION_PARTS = 50;

// ---- decimals: { n: bigint, s: scale } is n / 10^s -------------------------------------------------

const TEN = 10n;
const pow10 = (k) => TEN ** BigInt(k);

function parseDecimal(text) {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const frac = m[3] ?? '';
  const n = BigInt(m[2] + frac);
  return { n: m[1] ? -n : n, s: frac.length };
}

/** A stored value as a decimal: numbers by their shortest decimal form, decimal strings as written. */
function toDecimal(value) {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    const text = String(value);
    if (/e/i.test(text)) return parseDecimal(value.toFixed(20).replace(/0+$/, '').replace(/\.$/, ''));
    return parseDecimal(text);
  }
  if (typeof value === 'string') return parseDecimal(value.trim());
  return null;
}

function align(a, b) {
  if (a.s === b.s) return [a.n, b.n, a.s];
  if (a.s < b.s) return [a.n * pow10(b.s - a.s), b.n, b.s];
  return [a.n, b.n * pow10(a.s - b.s), a.s];
}

/** n / d rounded half away from zero. */
function divRound(n, d) {
  const negative = (n < 0n) !== (d < 0n);
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  let q = an / ad;
  if ((an % ad) * 2n >= ad) q += 1n;
  return negative ? -q : q;
}

function rescale(a, s) {
  if (s >= a.s) return { n: a.n * pow10(s - a.s), s };
  return { n: divRound(a.n, pow10(a.s - s)), s };
}

function trimZeros(a) {
  let { n, s } = a;
  while (s > 0 && n % TEN === 0n) {
    n /= TEN;
    s -= 1;
  }
  return { n, s };
}

const ops = {
  '+': (a, b) => { const [x, y, s] = align(a, b); return { n: x + y, s }; },
  '-': (a, b) => { const [x, y, s] = align(a, b); return { n: x - y, s }; },
  '*': (a, b) => ({ n: a.n * b.n, s: a.s + b.s }),
  '/': (a, b) => {
    if (b.n === 0n) return null;
    // a/b = (a.n / 10^a.s) / (b.n / 10^b.s); computed with DIVISION_SCALE digits, then trimmed.
    const shift = DIVISION_SCALE + b.s - a.s;
    const q = shift >= 0 ? divRound(a.n * pow10(shift), b.n) : divRound(a.n, b.n * pow10(-shift));
    return trimZeros({ n: q, s: DIVISION_SCALE });
  },
};

const compare = (a, b) => { const [x, y] = align(a, b); return x < y ? -1 : x > y ? 1 : 0; };

/** A decimal as text: "12.50", "-3", "0.333333333333". */
export function decimalText(a) {
  const negative = a.n < 0n;
  const digits = (negative ? -a.n : a.n).toString().padStart(a.s + 1, '0');
  const text = a.s === 0 ? digits : `${digits.slice(0, digits.length - a.s)}.${digits.slice(digits.length - a.s)}`;
  return negative && a.n !== 0n ? `-${text}` : text;
}

// ---- formulas -----------------------------------------------------------------------------------

const NAME_START = /[\p{L}_]/u;
const NAME_CHAR = /[\p{L}\p{N}_.[\]]/u;

function tokenize(text) {
  const tokens = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) { i += 1; continue; }
    if ('+-*/(),'.includes(c)) { tokens.push({ t: c, at: i }); i += 1; continue; }
    if (/[0-9.]/.test(c)) {
      const m = /^\d*\.?\d+|^\d+\.?/.exec(text.slice(i));
      const raw = m[0].endsWith('.') ? m[0].slice(0, -1) : m[0];
      const dec = parseDecimal(raw.startsWith('.') ? `0${raw}` : raw);
      if (!dec) throw new Error(`"${m[0]}" at ${i + 1} is not a number`);
      tokens.push({ t: 'num', v: dec, at: i });
      i += m[0].length;
      continue;
    }
    if (c === '{') {
      const end = text.indexOf('}', i + 1);
      if (end < 0) throw new Error(`the "{" at ${i + 1} is never closed`);
      const name = text.slice(i + 1, end).trim();
      if (!name) throw new Error(`"{}" at ${i + 1} names no field`);
      tokens.push({ t: 'name', v: name, at: i });
      i = end + 1;
      continue;
    }
    if (NAME_START.test(c)) {
      let j = i + 1;
      while (j < text.length && NAME_CHAR.test(text[j])) j += 1;
      tokens.push({ t: 'name', v: text.slice(i, j), at: i, bare: true });
      i = j;
      continue;
    }
    throw new Error(`"${c}" at ${i + 1} is not allowed in a formula`);
  }
  return tokens;
}

/**
 * Parses a formula. Returns `{ok: true, ast, refs}` (refs: the field names it reads) or
 * `{ok: false, problem}` with a phrase to follow "The formula ".
 */
export function parseFormula(text) {
  if (typeof text !== 'string' || !text.trim()) return { ok: false, problem: 'is empty.' };
  if (text.length > MAX_FORMULA_CHARS) return { ok: false, problem: `is longer than ${MAX_FORMULA_CHARS} characters.` };
  let tokens;
  try {
    tokens = tokenize(text);
  } catch (e) {
    return { ok: false, problem: `is not valid: ${e.message}.` };
  }
  let p = 0;
  const refs = new Set();
  const peek = () => tokens[p];
  const expect = (t) => {
    const tok = tokens[p];
    if (!tok || tok.t !== t) throw new Error(tok ? `expected "${t}" at ${tok.at + 1}` : `expected "${t}" at the end`);
    p += 1;
  };
  const expr = () => {
    let left = term();
    while (peek() && (peek().t === '+' || peek().t === '-')) {
      const op = tokens[p++].t;
      left = { k: 'bin', op, a: left, b: term() };
    }
    return left;
  };
  const term = () => {
    let left = unary();
    while (peek() && (peek().t === '*' || peek().t === '/')) {
      const op = tokens[p++].t;
      left = { k: 'bin', op, a: left, b: unary() };
    }
    return left;
  };
  const unary = () => {
    if (peek() && peek().t === '-') { p += 1; return { k: 'neg', a: unary() }; }
    if (peek() && peek().t === '+') { p += 1; return unary(); }
    return atom();
  };
  const atom = () => {
    const tok = tokens[p];
    if (!tok) throw new Error('it ends too soon');
    p += 1;
    if (tok.t === 'num') return { k: 'num', v: tok.v };
    if (tok.t === '(') {
      const inner = expr();
      expect(')');
      return inner;
    }
    if (tok.t === 'name') {
      if (tok.bare && peek() && peek().t === '(') {
        const fn = tok.v.toLowerCase();
        if (!FUNCTIONS.has(fn)) throw new Error(`"${tok.v}" is not a function (use sum, min, max, abs or round)`);
        p += 1;
        const args = [];
        if (!(peek() && peek().t === ')')) {
          args.push(expr());
          while (peek() && peek().t === ',') { p += 1; args.push(expr()); }
        }
        expect(')');
        if ((fn === 'abs' && args.length !== 1) || (fn === 'round' && (args.length < 1 || args.length > 2)) || args.length === 0) {
          throw new Error(`${fn}() takes ${fn === 'abs' ? 'one value' : fn === 'round' ? 'a value and the digits to keep' : 'at least one value'}`);
        }
        return { k: 'call', fn, args };
      }
      refs.add(tok.v);
      return { k: 'ref', name: tok.v };
    }
    throw new Error(`"${tok.t}" at ${tok.at + 1} is out of place`);
  };
  try {
    const ast = expr();
    if (p < tokens.length) throw new Error(`"${tokens[p].t === 'name' ? tokens[p].v : tokens[p].t}" at ${tokens[p].at + 1} is out of place`);
    return { ok: true, ast, refs: [...refs] };
  } catch (e) {
    return { ok: false, problem: `is not valid: ${e.message}.` };
  }
}

function evaluate(node, read) {
  switch (node.k) {
    case 'num':
      return node.v;
    case 'ref':
      return read(node.name);
    case 'neg': {
      const a = evaluate(node.a, read);
      return a && { n: -a.n, s: a.s };
    }
    case 'bin': {
      const a = evaluate(node.a, read);
      const b = evaluate(node.b, read);
      return a && b ? ops[node.op](a, b) : null;
    }
    case 'call': {
      const values = node.args.map((arg) => evaluate(arg, read));
      if (node.fn === 'abs') return values[0] && { n: values[0].n < 0n ? -values[0].n : values[0].n, s: values[0].s };
      if (node.fn === 'round') {
        const x = values[0];
        const digits = values.length > 1 ? values[1] : { n: 0n, s: 0 };
        if (!x || !digits || digits.s !== 0 || digits.n < 0n || digits.n > 12n) return null;
        return rescale(x, Number(digits.n));
      }
      const present = values.filter(Boolean);
      if (node.fn === 'sum') return present.reduce((acc, v) => ops['+'](acc, v), { n: 0n, s: 0 });
      if (present.length === 0) return null;
      return present.reduce((best, v) => ((node.fn === 'min' ? compare(v, best) < 0 : compare(v, best) > 0) ? v : best));
    }
    default:
      return null;
  }
}

// ---- conditions -----------------------------------------------------------------------------------

function isEmpty(value) {
  return value === null || value === undefined || value === false || (typeof value === 'string' && value.trim() === '');
}

function sameValue(actual, wanted) {
  if (isEmpty(actual)) return wanted === null || wanted === '' || wanted === false;
  if (typeof wanted === 'boolean' || typeof actual === 'boolean') return actual === wanted;
  const a = toDecimal(actual);
  const b = toDecimal(wanted);
  if (a && b) return compare(a, b) === 0;
  return String(actual) === String(wanted);
}

/**
 * Checks a condition's shape. Returns `{ok: true, refs}` or `{ok: false, problem}` (a phrase to follow
 * "The condition ").
 */
export function checkCondition(condition) {
  const refs = new Set();
  let parts = 0;
  const walk = (c, depth) => {
    parts += 1;
    if (parts > MAX_CONDITION_PARTS) throw new Error(`has more than ${MAX_CONDITION_PARTS} parts`);
    if (depth > MAX_CONDITION_DEPTH) throw new Error(`nests deeper than ${MAX_CONDITION_DEPTH} levels`);
    if (!c || typeof c !== 'object' || Array.isArray(c)) throw new Error('must be an object');
    const keys = Object.keys(c);
    if (keys.length === 1 && (keys[0] === 'all' || keys[0] === 'any')) {
      const list = c[keys[0]];
      if (!Array.isArray(list) || list.length === 0) throw new Error(`"${keys[0]}" must be a non-empty list of conditions`);
      for (const inner of list) walk(inner, depth + 1);
      return;
    }
    if (typeof c.field !== 'string' || !c.field) throw new Error('needs "field" (a field name), or "all"/"any"');
    const tests = keys.filter((k) => k !== 'field');
    if (tests.length !== 1) throw new Error('needs exactly one of "equals", "one_of" or "not_empty" beside "field"');
    const test = tests[0];
    if (test === 'equals') {
      if (!['string', 'number', 'boolean'].includes(typeof c.equals)) throw new Error('"equals" must be a string, a number or true/false');
    } else if (test === 'one_of') {
      if (!Array.isArray(c.one_of) || c.one_of.length === 0 || !c.one_of.every((v) => ['string', 'number'].includes(typeof v))) {
        throw new Error('"one_of" must be a non-empty list of strings or numbers');
      }
    } else if (test === 'not_empty') {
      if (c.not_empty !== true) throw new Error('"not_empty" must be true');
    } else {
      throw new Error(`"${test}" is not a condition test (use equals, one_of or not_empty)`);
    }
    refs.add(c.field);
  };
  try {
    walk(condition, 0);
    return { ok: true, refs: [...refs] };
  } catch (e) {
    return { ok: false, problem: `${e.message}.` };
  }
}

function holds(c, read) {
  if (Array.isArray(c.all)) return c.all.every((inner) => holds(inner, read));
  if (Array.isArray(c.any)) return c.any.some((inner) => holds(inner, read));
  const value = read(c.field);
  if (c.not_empty === true) return !isEmpty(value);
  if (Array.isArray(c.one_of)) return c.one_of.some((v) => sameValue(value, v));
  return sameValue(value, c.equals);
}

// ---- the form as a whole --------------------------------------------------------------------------

/** The names a field's condition and formula read. */
function dependencies(field) {
  const deps = [];
  if (field.condition) {
    const checked = checkCondition(field.condition);
    if (checked.ok) deps.push(...checked.refs);
  }
  if (field.formula) {
    const parsed = parseFormula(field.formula);
    if (parsed.ok) deps.push(...parsed.refs);
  }
  return deps;
}

/**
 * The fields in an order where each comes after every field it reads; `{ok: false, cycle}` names a
 * cycle (field names, the first repeated at the end) when there is one.
 */
export function dependencyOrder(fields) {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const state = new Map();
  const order = [];
  const stack = [];
  let cycle = null;
  const visit = (name) => {
    if (cycle) return;
    const s = state.get(name);
    if (s === 2) return;
    if (s === 1) {
      cycle = [...stack.slice(stack.indexOf(name)), name];
      return;
    }
    const field = byName.get(name);
    if (!field) return;
    state.set(name, 1);
    stack.push(name);
    for (const dep of dependencies(field)) visit(dep);
    stack.pop();
    state.set(name, 2);
    order.push(field);
  };
  for (const f of fields) visit(f.name);
  return cycle ? { ok: false, cycle } : { ok: true, order };
}

/**
 * Applies conditions and formulas to a form's values: returns `{values, hidden}` where `values` has
 * each formula field computed (as decimal text, or null when an input is empty) and each hidden
 * field's value removed (null), and `hidden` is the set of field names whose condition does not hold.
 * Fields without a condition or formula are passed through as given. Cycles (refused when a template
 * is saved) leave the fields in them as they are.
 */
export function applyFieldLogic(fields, values) {
  const out = { ...values };
  const hidden = new Set();
  const planned = dependencyOrder(fields);
  if (!planned.ok) return { values: out, hidden };
  const read = (name) => (hidden.has(name) ? null : out[name]);
  const readDecimal = (name) => {
    const v = read(name);
    return typeof v === 'boolean' ? null : toDecimal(v);
  };
  for (const field of planned.order) {
    if (field.condition && !holds(field.condition, read)) {
      hidden.add(field.name);
      if (Object.hasOwn(out, field.name)) out[field.name] = null;
      continue;
    }
    if (field.formula) {
      const parsed = parseFormula(field.formula);
      if (!parsed.ok) continue;
      const result = evaluate(parsed.ast, readDecimal);
      out[field.name] = result ? decimalText(result) : null;
    }
  }
  return { values: out, hidden };
}
