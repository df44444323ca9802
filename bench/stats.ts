// The median and the nearest-rank percentile most benchmarks report, in one place. (seal-latency
// keeps its own percentile, the smallest value with at least p % at or below it, as it always has.)

/** The middle value (the mean of the two middle ones for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The `p`th percentile by nearest rank, rounding down (p50 of an even count is the upper middle). */
export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}
