/**
 * Warnings that can come once per request while something is wrong (every connection attempt during a
 * database outage, every slow unit under load): at most one line per kind this often, saying how many
 * were left out since the last one.
 */
export function throttledWarning(
  everyMs: number,
  write: (line: string) => void = (line) => console.warn(line),
  now: () => number = Date.now,
): (kind: string, line: string) => void {
  const last = new Map<string, { at: number; quiet: number }>();
  return (kind, line) => {
    const at = now();
    const seen = last.get(kind);
    if (seen && at - seen.at < everyMs) {
      seen.quiet++;
      return;
    }
    const more = seen?.quiet ? ` (${seen.quiet} more since the last warning)` : '';
    last.set(kind, { at, quiet: 0 });
    write(`${line}${more}`);
  };
}
