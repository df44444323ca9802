import assert from 'node:assert/strict';

// The README's shell blocks, found as a reader finds them: by their fence and the heading above them.

/** The fenced blocks tagged sh, bash or shell, with the line each starts on. */
export function shellBlocks(markdown: string): Array<{ line: number; code: string }> {
  const blocks: Array<{ line: number; code: string }> = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(sh|bash|shell)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    assert.ok(end < lines.length, `README.md:${start}: a shell block is never closed`);
    blocks.push({ line: start, code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return blocks;
}

/** The shell blocks between two headings, in order. */
export function blocksOfSection(markdown: string, heading: string, nextHeading: string): Array<{ line: number; code: string }> {
  const lines = markdown.split('\n');
  const from = lines.indexOf(heading);
  const to = lines.indexOf(nextHeading);
  assert.ok(from >= 0 && to > from, `README.md has "${heading}" before "${nextHeading}"`);
  return shellBlocks(markdown).filter((b) => b.line > from && b.line < to);
}
