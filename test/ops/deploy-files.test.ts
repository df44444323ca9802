import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { findCommand } from '../../src/cli/commands.js';
import { loadConfig } from '../../src/config.js';
import { envFile } from './env-file.js';

// The files in deploy/ are what the README's "Running at scale" shows, byte for byte; the environment
// they set is one the configuration accepts; every command they run is a formsign command.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (p: string) => fs.readFileSync(path.join(ROOT, p), 'utf8');
const README = read('README.md');
const section = README.slice(README.indexOf('## Running at scale'), README.indexOf('## Operator commands'));
const UNITS = ['deploy/systemd/formsign-migrate.service', 'deploy/systemd/formsign-api@.service', 'deploy/systemd/formsign-worker@.service'];

/** A unit's `Environment=A=1 B=2` lines. */
function unitEnvironment(unit: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of unit.split('\n').filter((l) => l.startsWith('Environment='))) {
    for (const pair of line.slice('Environment='.length).split(/\s+/)) {
      const at = pair.indexOf('=');
      env[pair.slice(0, at)] = pair.slice(at + 1);
    }
  }
  return env;
}

/** The formsign command a command line runs (`node bin/formsign.js serve` → ['serve']). */
function formsignArgs(command: string): string[] {
  const words = command.trim().split(/\s+/);
  const at = words.indexOf('bin/formsign.js');
  assert.ok(at >= 0, `runs bin/formsign.js: ${command}`);
  return words.slice(at + 1);
}

const known = (args: string[]) => args[0] === 'serve' || findCommand(args) !== undefined;

describe('deploy/ files', () => {
  it('the README shows each file as it is', () => {
    for (const unit of UNITS) assert.ok(section.includes(`\`\`\`ini\n# ${unit}\n${read(unit)}\`\`\``), `README shows ${unit} verbatim`);
    assert.ok(section.includes(`\`\`\`\n${read('deploy/formsign.env.example')}\`\`\``), 'README shows the environment file verbatim');
    assert.ok(section.includes(`\`\`\`\n${read('deploy/Procfile')}\`\`\``), 'README shows the Procfile verbatim');
    assert.ok(section.includes('### Throughput and sizing'), 'the placeholder for the cluster figures');
  });

  it('the environment file, with each unit\'s additions, is a configuration the processes accept', () => {
    const shared = envFile(read('deploy/formsign.env.example'));
    for (const unit of UNITS) {
      // %i is the instance name: the port of an API server.
      const config = loadConfig({ ...shared, ...unitEnvironment(read(unit).replaceAll('%i', '3000')) }, false);
      assert.equal(config.migrateOnStart, false, unit);
      assert.equal(config.shutdownGraceMs, 10_000);
      assert.ok(config.databaseUrl && config.redisUrl && config.s3, 'PostgreSQL, Redis and S3');
      if (unit.includes('api@')) assert.deepEqual([config.worker, config.host, config.trustProxy], ['off', '0.0.0.0', ['loopback']]);
    }
    assert.equal(loadConfig({ ...shared, PORT: '3000', WORKER: 'off' }, false).worker, 'off', 'the Procfile web process');
  });

  it('every unit and Procfile line runs a formsign command, and each Procfile command parses', () => {
    const commands = UNITS.map((u) => /^ExecStart=(.*)$/m.exec(read(u))?.[1] ?? '');
    assert.deepEqual(commands.map((c) => formsignArgs(c)), [['migrate'], ['serve'], ['worker']]);
    const procfile = read('deploy/Procfile').trim().split('\n').map((l) => /^(\w+): (.*)$/.exec(l)!);
    assert.deepEqual(procfile.map((m) => m[1]), ['release', 'web', 'worker']);
    for (const m of procfile) {
      assert.ok(known(formsignArgs(m[2]!)), m[2]);
      assert.equal(spawnSync('bash', ['-n'], { input: m[2], encoding: 'utf8' }).status, 0, m[2]);
    }
    for (const c of commands) assert.ok(known(formsignArgs(c)), c);
    for (const u of UNITS.slice(1)) assert.match(read(u), /^TimeoutStopSec=30$/m, `${u}: the stop timeout outlasts SHUTDOWN_GRACE_MS`);
  });
});
