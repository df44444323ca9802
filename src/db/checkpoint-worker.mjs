// Background WAL checkpointer for the SQLite store (see sqlite-checkpointer.ts for why). Plain JS so the
// worker needs no TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, intervalMs, restartFrames } = workerData;
const db = new Database(file, { fileMustExist: true });
db.pragma('busy_timeout = 2000');

function checkpoint() {
  try {
    // PASSIVE never blocks the writer: it copies what the WAL holds while writes go on.
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    // Copied, but only the writer can start the WAL over (see sqlite-checkpointer.ts): ask it to.
    if (r && r.log >= restartFrames) parentPort.postMessage({ restart: true });
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
