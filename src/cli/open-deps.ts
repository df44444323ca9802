import type { Config } from '../config.js';
import { createDeps, MigrationsPendingError, type Deps, type DepsOptions } from '../deps.js';
import { MigrationLockTimeoutError } from '../db/migration-lock.js';
import { checkDataDir } from './data-dir.js';
import { OperatorError } from './output.js';
import { checkPostgres, withoutPassword } from './postgres-check.js';

// How every command (serve, worker, the operator commands) opens the store: a PostgreSQL database
// that does not exist yet is created when the login allows it, and a store that cannot be opened
// becomes one sentence saying what to change.

const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'SQLITE_CANTOPEN', 'SQLITE_READONLY']);

export async function openDeps(config: Config, opts: DepsOptions = {}): Promise<Deps> {
  // DATA_DIR holds the SQLite file, the files (without S3) and the generated signing certificate
  // (without SIGNING_CERT_P12); a deployment that uses none of them may have it read-only.
  if (!config.databaseUrl || !config.s3 || !config.signingCert) checkDataDir(config.dataDir);
  if (config.databaseUrl) {
    const url = config.databaseUrl;
    const connect = async () => {
      const check = await checkPostgres(url, { create: true, variable: 'DATABASE_URL' });
      // serve and worker wait for a server that refuses or drops connections; an operator command says so at once.
      if (!check.ok) throw Object.assign(new OperatorError(check.problem), { code: check.code });
      return check;
    };
    const check = opts.startUp ? await opts.startUp.run(connect) : await connect();
    if (check.created) process.stderr.write(`Created the database ${withoutPassword(url)} (it did not exist).\n`);
  }
  try {
    return await createDeps(config, opts);
  } catch (error) {
    if (error instanceof MigrationsPendingError || error instanceof MigrationLockTimeoutError) throw new OperatorError(error.message);
    const code = (error as { code?: unknown }).code;
    if (!config.databaseUrl && typeof code === 'string' && UNWRITABLE.has(code)) {
      throw new OperatorError(`Cannot open the SQLite database in ${config.dataDir} (${(error as Error).message}); set DATA_DIR to a folder this user can write.`);
    }
    throw error;
  }
}
