// What an XFA hybrid (the IRS 1040, the I-90) says of each field: the XFA template's
// <assist><toolTip> or <speak>, keyed by the field's SOM path as the AcroForm names it
// ("topmostSubform[0].Page1[0].f1_02[0]"). The AcroForm half of such a form carries no /TU.
import { decodePDFRawStream, PDFArray, PDFHexString, PDFName, PDFRawStream, PDFString, type PDFDocument } from '@cantoo/pdf-lib';
import { Parser } from 'htmlparser2';

/** Elements that take part in a SOM path when they have a name; unnamed ones are transparent. */
const CONTAINERS = new Set(['subform', 'subformset', 'exclgroup', 'field', 'area', 'pageset', 'pagearea']);
/** Elements whose assist text labels them. */
const LABELLED = new Set(['field', 'exclgroup']);

interface Frame {
  tag: string;
  /** The SOM path when this element is a named container, else undefined (transparent). */
  path?: string;
  /** Names seen among the container's children, for their [n] index. */
  counts?: Map<string, number>;
  assist?: { toolTip?: string; speak?: string };
}

function templateXml(doc: PDFDocument): string | undefined {
  const form = doc.catalog.AcroForm();
  const xfa = form?.lookup(PDFName.of('XFA'));
  const decode = (s: unknown): string | undefined => (s instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(s).decode()).toString('utf8') : undefined);
  if (xfa instanceof PDFArray) {
    for (let i = 0; i + 1 < xfa.size(); i += 2) {
      const name = xfa.lookup(i);
      const text = name instanceof PDFString || name instanceof PDFHexString ? name.decodeText() : '';
      if (text === 'template') return decode(xfa.lookup(i + 1));
    }
    return undefined;
  }
  // A single stream holds the whole XDP package; the template is one element of it.
  return decode(xfa);
}

/** "Page 1. Filing Status. Single. " → "Filing Status. Single": the page is shown anyway. */
export function tidyLabel(text: string): string | undefined {
  const t = text.replace(/\s+/g, ' ').trim().replace(/^Page \d+\.\s*/i, '').replace(/\s*[.:]$/, '').trim();
  return t === '' ? undefined : t;
}

/** Labels by AcroForm field name; empty when the document has no XFA template. */
export function xfaLabels(doc: PDFDocument): Map<string, string> {
  const labels = new Map<string, string>();
  let xml: string | undefined;
  try {
    xml = templateXml(doc);
  } catch {
    return labels;
  }
  if (!xml) return labels;
  const stack: Frame[] = [{ tag: '#root', path: '', counts: new Map() }];
  let text = '';
  const scope = (): Frame => {
    for (let i = stack.length - 1; i >= 0; i--) if (stack[i]!.counts) return stack[i]!;
    return stack[0]!;
  };
  const parser = new Parser({
    onopentag(rawName, attrs) {
      const tag = rawName.toLowerCase().replace(/^.*:/, '');
      const frame: Frame = { tag };
      const name = attrs.name;
      if (CONTAINERS.has(tag) && name) {
        const parent = scope();
        const n = parent.counts!.get(name) ?? 0;
        parent.counts!.set(name, n + 1);
        frame.path = `${parent.path ? `${parent.path}.` : ''}${name}[${n}]`;
        frame.counts = new Map();
      }
      if (tag === 'assist') frame.assist = {};
      stack.push(frame);
      text = '';
    },
    ontext(data) {
      text += data;
    },
    onclosetag() {
      const frame = stack.pop();
      if (!frame) return;
      const parent = stack[stack.length - 1];
      if ((frame.tag === 'tooltip' || frame.tag === 'speak') && parent?.assist) {
        parent.assist[frame.tag === 'tooltip' ? 'toolTip' : 'speak'] = text;
      } else if (frame.tag === 'assist' && parent?.path && LABELLED.has(parent.tag)) {
        const label = tidyLabel(frame.assist?.toolTip ?? '') ?? tidyLabel(frame.assist?.speak ?? '');
        if (label) labels.set(parent.path, label);
      }
      text = '';
    },
  }, { xmlMode: true, decodeEntities: true });
  parser.end(xml);
  return labels;
}
