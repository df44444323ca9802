// Background WAL checkpointer for the SQLite store (see sqlite-checkpointer.ts for why). Plain JS so the
// worker needs no TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, intervalMs, restartPages } = workerData;
const db = new Database(file, { fileMustExist: true });
db.pragma('busy_timeout = 2000');

function checkpoint() {
  try {
    // PASSIVE never blocks the writer: it copies the bulk of the WAL while writes go on.
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    // Under steady writes a PASSIVE pass never finds the WAL fully copied at a moment the writer could
    // start it over, so the WAL would only grow (and every page lookup walks its index). RESTART copies
    // the little written meanwhile under a brief writer pause and makes the next write start it over.
    if (r && r.log > restartPages) db.pragma('wal_checkpoint(RESTART)');
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
}

const timer = setInterval(checkpoint, intervalMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
