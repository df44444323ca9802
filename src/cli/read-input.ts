import fs from 'node:fs';
import { OperatorError } from './output.js';

/** A file named on the command line, or one sentence saying why it cannot be read. */
export function readInput(file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') throw new OperatorError(`File not found: ${file}`);
    if (code === 'EISDIR') throw new OperatorError(`${file} is a folder; give a file`);
    if (code === 'EACCES' || code === 'EPERM') throw new OperatorError(`Cannot read ${file}: permission denied`);
    throw new OperatorError(`Cannot read ${file} (${String(code ?? error)})`);
  }
}
