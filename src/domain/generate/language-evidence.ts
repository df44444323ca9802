// How sure franc's own evidence is that a text is in one language rather than another. franc scores a
// text by summing, over its distinct trigrams, each trigram's rank in a language's 300 most common ones
// (300 when absent) and reports the sums scaled to 0–1; between close languages (Catalan and Spanish,
// Galician and Portuguese, Low German and German) the sums differ by a few per cent, and on a short text
// a few per cent is chance: a dozen place names or typos move it. Comparing the two languages trigram by
// trigram gives both the difference and how much it varies, so the difference can be weighed against its
// standard error (a paired t statistic): a text is a language's only when it is so by more than chance,
// however long it is.
import { data } from 'franc/data.js';

/** franc's per-language models (its data.js), as trigram → rank, built on first use: a few are ever needed. */
const models = new Map<string, Map<string, number> | undefined>();

function model(code: string): Map<string, number> | undefined {
  if (!models.has(code)) {
    const line = data['Latin']?.[code];
    models.set(code, line === undefined ? undefined : new Map(line.split('|').map((t, rank) => [t, rank])));
  }
  return models.get(code);
}

/** A text's distinct trigrams and their counts, as franc (trigram-utils) makes them. */
export function trigramCounts(text: string): Map<string, number> {
  const clean = ` ${text.replace(/[\u0021-\u0040]+/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase()} `;
  const counts = new Map<string, number>();
  for (let i = 0; i + 3 <= clean.length; i++) {
    const t = clean.slice(i, i + 3);
    counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  return counts;
}

/** franc's cost of one trigram in a language (its getDistance): rank distance, 300 when the language lacks it. */
function cost(m: Map<string, number>, trigram: string, count: number): number {
  const rank = m.get(trigram);
  return rank === undefined ? 300 : Math.abs(count - rank - 1);
}

/**
 * How many standard errors `better` fits the text's trigrams better than `worse` (franc's distance of
 * `worse` minus that of `better`, over its standard error). Positive when franc prefers `better`; about 0
 * when the two are as alike on this text as chance makes them. Latin-script models only; 0 otherwise.
 */
export function separation(trigrams: ReadonlyMap<string, number>, better: string, worse: string): number {
  const a = model(better);
  const b = model(worse);
  if (!a || !b || trigrams.size < 2) return 0;
  let sum = 0;
  let squares = 0;
  for (const [t, count] of trigrams) {
    const d = cost(b, t, count) - cost(a, t, count);
    sum += d;
    squares += d * d;
  }
  const n = trigrams.size;
  const variance = (squares - (sum * sum) / n) / (n - 1);
  if (variance <= 0) return sum === 0 ? 0 : Math.sign(sum) * Infinity;
  return sum / Math.sqrt(variance * n);
}


/** How many of their 300 trigrams two languages' models share. */
function shared(a: Map<string, number>, b: Map<string, number>): number {
  let n = 0;
  for (const t of a.keys()) if (b.has(t)) n++;
  return n;
}

let closestPair: number | undefined;

/**
 * Whether `code`'s model is closer to the supported language `to`'s than any two supported languages'
 * models are to each other (Spanish and Portuguese share 176 of 300 trigrams): Scots to English (201),
 * Galician to Spanish (221) and Portuguese (200). franc's preference between such near copies comes
 * from how two translations of one text happen to rank the same trigrams, so it is no evidence on its
 * own however many standard errors it reaches (a list of English nouns comes out Scots by 2.5).
 */
export function nearCopy(code: string, to: string, supported: readonly string[]): boolean {
  const a = model(code);
  const b = model(to);
  if (!a || !b) return false;
  closestPair ??= Math.max(...supported.flatMap((x, i) => supported.slice(i + 1).map((y) => shared(model(x)!, model(y)!))));
  return shared(a, b) > closestPair;
}
