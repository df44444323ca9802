import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { OperatorError } from './output.js';

// DATA_DIR must be a folder this process can create files in, checked before anything opens a file
// there: otherwise a path like /proc/x surfaces much later, or not at all (SQLite retried for two
// minutes with no output). One sentence naming the folder, the reason and what to do.
// The folders are made one level at a time: Node's mkdirSync({ recursive: true }) never returns for a
// path under /proc (it retries the ENOENT forever), which is how DATA_DIR=/proc/x used to hang.

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a file stands where a folder is needed',
  ENOSPC: 'the disk is full',
};

export function checkDataDir(dir: string): void {
  const fail = (reason: string): never => {
    throw new OperatorError(`DATA_DIR ${dir} is not a folder this user can write (${reason}); set DATA_DIR to one, e.g. DATA_DIR=./data.`);
  };
  const reasonOf = (error: unknown, otherwise: string): string => REASONS[String((error as { code?: unknown }).code)] ?? otherwise;
  try {
    makeFolders(path.resolve(dir));
  } catch (error) {
    fail(reasonOf(error, 'it cannot be created there'));
  }
  if (!fs.statSync(dir).isDirectory()) fail('it is a file, not a folder');
  const probe = path.join(dir, `.write-check-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (error) {
    fail(reasonOf(error, 'files cannot be created in it'));
  }
}

function makeFolders(dir: string): void {
  const missing: string[] = [];
  for (let d = dir; !fs.existsSync(d); d = path.dirname(d)) missing.unshift(d);
  for (const d of missing) fs.mkdirSync(d);
}
