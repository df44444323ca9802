import type { Cluster } from './cluster.js';
import type { FaultRun } from './faults.js';
import type { LoadRecord } from './load.js';

// `npm run cluster -- --faults --sabotage`: breaks what each invariant reads, once, after the run, so
// every check can be seen to fail (the rate-limit one is broken for real: the cluster then starts its
// second API process without REDIS_URL). Never part of the fault test.

export async function sabotage(c: Cluster, r: LoadRecord, faults: FaultRun | undefined): Promise<string[]> {
  const done: string[] = [];
  const { accountId, mode } = c.load.partition;
  const now = new Date().toISOString();
  const signed = [...r.signed.keys()];
  // 1. A signature answered 200 whose image is gone.
  await c.db.query('delete from signatures where form_id = $1', [signed[0]]);
  done.push(`deleted the signature images of ${signed[0]}`);
  // 2. An event no webhook delivery will ever carry (written as already published).
  const form = await c.db.query<{ form: string; created_at: string }>('select form, form_created_at as created_at from events where form_id = $1 limit 1', [signed[0]]);
  await c.db.query('insert into events (id, account_id, mode, type, form_id, form_created_at, form, created_at, published_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $8)', [
    'evt_sabotage0000000000000000', accountId, mode, 'form.signed', signed[0], form.rows[0]!.created_at, form.rows[0]!.form, now,
  ]);
  done.push('added an event that was never delivered');
  // 3. A message marked delivered that never reached the sink.
  await c.db.query(`insert into messages (id, account_id, mode, form_id, recipient_id, channel, to_address, subject, text, html, transport, status, created_at, updated_at, delivered_at) values ('msg_sabotage000000000000000', $1, $2, $3, null, 'email', 'lost@cluster.example', 'Lost', 'Lost', null, 'smtp', 'delivered', $4, $4, $4)`, [accountId, mode, signed[1], now]);
  done.push('added a message marked delivered that the sink never got');
  // 4. A sealed file whose bytes in S3 are not the recorded ones.
  await c.db.query(`update sealed_files set sha256 = $2 where form_id = $1`, [signed[2], '0'.repeat(64)]);
  done.push(`changed the sealed file hash of ${signed[2]}`);
  // 6. A job a killed worker holds for an hour more (a lease that outlives its worker; one already
  // over would be taken back by a live worker at once, as it should).
  const hour = new Date(Date.now() + 3_600_000).toISOString();
  await c.db.query(`insert into outbox (id, account_id, mode, kind, payload, status, run_at, locked_until, locked_by, created_at) values ('job_sabotage000000000000000', $1, $2, 'webhook.sweep', '{}', 'running', $3, $4, $5, $3)`, [accountId, mode, now, hour, faults?.killedWorkers[0] ?? 'dead-worker']);
  done.push('left a job leased by a killed worker for an hour');
  // 8. A worker dies without being asked.
  const pid = c.workers[0]!.pid();
  if (pid !== undefined) process.kill(pid, 'SIGKILL');
  await new Promise((resolve) => setTimeout(resolve, 500));
  done.push(`killed worker 0 (pid ${pid}) behind the harness's back`);
  return done;
}
