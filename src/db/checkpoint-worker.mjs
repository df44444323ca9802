// Background WAL checkpointer for the SQLite store (see sqlite-checkpointer.ts for why). Plain JS so the
// worker needs no TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, intervalMs, restartPages } = workerData;
const db = new Database(file, { fileMustExist: true });
db.pragma('busy_timeout = 2000');

function checkpoint() {
  try {
    // PASSIVE never blocks the writer; it copies what it can and the writer reuses the WAL from the
    // start once everything in it has been copied.
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    // A WAL that keeps growing (a writer faster than the copy) is copied under a brief writer pause.
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
