/**
 * Lines that can come once per request or per attempt while something is wrong (every connection
 * attempt during a database outage, every slow unit under load, every write and job poll while the
 * disk is full): the log must not amplify an incident (issue 35 item 6). At most one line per kind
 * per interval, and the line that ends a quiet interval says how many were left out.
 */

/** `take(kind)`: undefined when this occurrence is to be left out, else how many were left out before it. */
export function repeatLimiter(everyMs: number, now: () => number = Date.now): (kind: string) => number | undefined {
  const last = new Map<string, { at: number; quiet: number }>();
  return (kind) => {
    const at = now();
    const seen = last.get(kind);
    if (seen && at - seen.at < everyMs) {
      seen.quiet++;
      return undefined;
    }
    last.set(kind, { at, quiet: 0 });
    // Bounded: kinds are few by construction, but a line-derived kind must not grow the map forever.
    if (last.size > 1000) last.delete(last.keys().next().value!);
    return seen?.quiet ?? 0;
  };
}

const quietSuffix = (quiet: number) => (quiet > 0 ? ` (${quiet} more since the last warning)` : '');

export function throttledWarning(
  everyMs: number,
  write: (line: string) => void = (line) => console.warn(line),
  now: () => number = Date.now,
): (kind: string, line: string) => void {
  const take = repeatLimiter(everyMs, now);
  return (kind, line) => {
    const quiet = take(kind);
    if (quiet !== undefined) write(`${line}${quietSuffix(quiet)}`);
  };
}

/**
 * A log function (one line per call) whose repeats are limited: the kind of a line is the line with
 * its ids, numbers and quoted values left out, so "job job_1 failed (attempt 2)" and "job job_2 failed
 * (attempt 5)" are one kind.
 */
export function repeatLimitedLog(everyMs: number, write: (line: string) => void, now: () => number = Date.now): (line: string) => void {
  const warn = throttledWarning(everyMs, write, now);
  return (line) => warn(kindOfLine(line), line);
}

export function kindOfLine(line: string): string {
  return line
    .replace(/"[^"]*"|'[^']*'/g, '"…"')
    .replace(/\b[a-z]+_[A-Za-z0-9]{6,}\b/g, 'ID')
    .replace(/\d+(\.\d+)?/g, 'N');
}
