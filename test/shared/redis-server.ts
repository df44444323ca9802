import { spawn, type ChildProcess } from 'node:child_process';

// A redis-server of the test's own (nothing on disk) on a free loopback port: stopping it disturbs
// no other test on the machine, which share the machine's Redis.

const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const until = Date.now() + 15_000;
  while (!/Ready to accept connections/i.test(out)) {
    if (child.exitCode !== null || Date.now() > until) throw new Error(`redis-server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return child;
}

export async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}
