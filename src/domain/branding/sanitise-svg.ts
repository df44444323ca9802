import { Parser } from 'htmlparser2';

// An uploaded SVG logo is shown on signing pages, in e-mails and in the dashboard, so it is rebuilt
// from an allowlist rather than filtered by a denylist: only drawing elements and presentation
// attributes pass; scripts, event handlers, foreignObject, animation, and every reference outside the
// document (href, xlink:href, url(...) and @import to anything but a local `#id`) are dropped. The text
// is parsed as XML by htmlparser2 (no entity expansion, no external DTD) and written out again from
// what was kept, so nothing the parser did not understand can pass through as raw text.
// No CSS is kept at all (no `style` attribute, no <style> element): CSS escapes (`u\72 l(`,
// `@im\70ort`) and image-set() would defeat any pattern over it. Presentation attributes stay, and
// a value with a backslash, url( to anything but `#id`, image-set or @import is dropped.

const ELEMENTS: ReadonlySet<string> = new Set([
  'svg', 'g', 'defs', 'title', 'desc', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'text', 'tspan',
  'lineargradient', 'radialgradient', 'stop', 'clippath', 'mask', 'pattern', 'symbol', 'use',
]);

// Lower-cased names; written out with SVG's own case (viewBox, gradientUnits…) from CASE below.
const ATTRIBUTES: ReadonlySet<string> = new Set([
  'id', 'class', 'viewbox', 'width', 'height', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'd', 'points',
  'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-linecap', 'stroke-linejoin',
  'stroke-miterlimit', 'stroke-dasharray', 'stroke-dashoffset', 'opacity', 'transform', 'offset', 'stop-color', 'stop-opacity',
  'gradientunits', 'gradienttransform', 'spreadmethod', 'fx', 'fy', 'clip-path', 'clip-rule', 'mask', 'clippathunits',
  'maskunits', 'patternunits', 'patterntransform', 'preserveaspectratio', 'font-family', 'font-size', 'font-weight',
  'font-style', 'text-anchor', 'dominant-baseline', 'letter-spacing', 'xmlns', 'version', 'role', 'aria-label', 'aria-hidden',
  'href', 'xlink:href', 'xmlns:xlink', 'dx', 'dy',
]);

const CASE: Readonly<Record<string, string>> = {
  viewbox: 'viewBox', lineargradient: 'linearGradient', radialgradient: 'radialGradient', clippath: 'clipPath',
  gradientunits: 'gradientUnits', gradienttransform: 'gradientTransform', spreadmethod: 'spreadMethod',
  clippathunits: 'clipPathUnits', maskunits: 'maskUnits', patternunits: 'patternUnits', patterntransform: 'patternTransform',
  preserveaspectratio: 'preserveAspectRatio',
};

/** A reference that leaves the document, or a way to run code; a value with one is dropped. */
const EXTERNAL = /\\|url\s*\(\s*['"]?\s*(?!#)|@import|image-set|expression\s*\(|javascript:|data:|behavio(u)?r\s*:|-moz-binding/i;

export interface SanitisedSvg {
  svg: string;
  /** What was taken out, for the response (the sender sees that their file was changed). */
  removed: string[];
}

export function sanitiseSvg(source: string): SanitisedSvg {
  const out: string[] = [];
  const removed = new Set<string>();
  // Depth inside a dropped element: everything in it goes, text included.
  let dropping = 0;
  let root = false;
  const stack: string[] = [];
  const parser = new Parser(
    {
      onopentag(raw, attrs) {
        const name = raw.toLowerCase().replace(/^svg:/, '');
        if (dropping > 0 || !ELEMENTS.has(name) || (!root && name !== 'svg')) {
          dropping++;
          removed.add(`<${raw}>`);
          stack.push('');
          return;
        }
        root = true;
        const kept: string[] = [];
        for (const [rawAttr, value] of Object.entries(attrs)) {
          const attr = rawAttr.toLowerCase();
          if (!ATTRIBUTES.has(attr)) {
            removed.add(attr.startsWith('on') ? `${attr} (event handler)` : attr === 'style' ? 'style (CSS is not kept)' : attr);
            continue;
          }
          if ((attr === 'href' || attr === 'xlink:href') && !value.trim().startsWith('#')) {
            removed.add(`${attr}="${value.slice(0, 60)}" (external reference)`);
            continue;
          }
          if (attr.startsWith('xmlns') && value !== 'http://www.w3.org/2000/svg' && value !== 'http://www.w3.org/1999/xlink') {
            removed.add(attr);
            continue;
          }
          if (EXTERNAL.test(value)) {
            removed.add(`${attr} (external reference)`);
            continue;
          }
          kept.push(` ${CASE[attr] ?? attr}="${escapeAttr(value)}"`);
        }
        const tag = CASE[name] ?? name;
        if (name === 'svg' && stack.length === 0 && !kept.some((a) => a.startsWith(' xmlns='))) kept.unshift(' xmlns="http://www.w3.org/2000/svg"');
        out.push(`<${tag}${kept.join('')}>`);
        stack.push(tag);
      },
      ontext(text) {
        if (dropping === 0 && stack.length > 0) out.push(escapeText(text));
      },
      onclosetag() {
        const tag = stack.pop();
        if (tag === undefined) return;
        if (tag === '') dropping--;
        else out.push(`</${tag}>`);
      },
      onprocessinginstruction(name) {
        if (name.toLowerCase() !== '?xml') removed.add(`<${name}> (declaration)`);
      },
      oncdatastart() {
        removed.add('CDATA');
      },
    },
    { xmlMode: true, recognizeSelfClosing: true, decodeEntities: true },
  );
  parser.write(source);
  parser.end();
  return { svg: out.join(''), removed: [...removed] };
}

function escapeText(s: string): string {
  return s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
}

function escapeAttr(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
