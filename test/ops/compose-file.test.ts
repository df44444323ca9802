import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { findCommand } from '../../src/cli/commands.js';
import { loadConfig } from '../../src/config.js';
import { envFile } from './env-file.js';

// compose.yaml (issue 37) runs what deploy/formsign.env.example describes: the same variables, pointed
// at its own PostgreSQL, Redis and (optionally) S3, with the image the Dockerfile builds. The image
// itself is built and run by `npm run test:image` (scripts/test-image.sh).

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (p: string) => fs.readFileSync(path.join(ROOT, p), 'utf8');

interface Service {
  image?: string;
  build?: { context: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  profiles?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { disable?: boolean; test?: string[] };
  stop_grace_period?: string;
}
const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const services = compose.services;

/** Compose's interpolation: `${NAME:-default}`, `${NAME-default}`, `${NAME}`, `$$` for a dollar sign. */
function interpolate(value: string, dotenv: Record<string, string>): string {
  return value.replace(/\$\$|\$\{(\w+)(?:(:?-)([^}]*))?\}/g, (whole, name: string | undefined, op: string | undefined, fallback: string | undefined) => {
    if (whole === '$$') return '$';
    const set = dotenv[name!];
    if (op === ':-') return set === undefined || set === '' ? fallback! : set;
    if (op === '-') return set === undefined ? fallback! : set;
    return set ?? '';
  });
}
const environmentOf = (service: Service, dotenv: Record<string, string> = {}): Record<string, string> =>
  Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), dotenv)]));

const example = envFile(read('deploy/formsign.env.example'));
const FORMSIGN = ['migrate', 'api', 'worker'];
// What the API server adds to the shared file, as in the README's table and formsign-api@.service.
const API_ADDS = ['WORKER', 'HOST', 'PORT'];

describe('compose.yaml', () => {
  it('runs the API, the worker and a migrate step on PostgreSQL and Redis, with S3 in a profile', () => {
    assert.deepEqual(Object.keys(services).sort(), ['api', 'migrate', 'minio', 'minio-bucket', 'postgres', 'redis', 'worker']);
    assert.deepEqual(FORMSIGN.map((s) => services[s]!.command), [['migrate'], ['serve'], ['worker']]);
    for (const s of FORMSIGN) {
      const args = services[s]!.command!;
      assert.ok(args[0] === 'serve' || findCommand(args) !== undefined, `${s}: formsign ${args.join(' ')} is a command`);
      assert.equal(services[s]!.build?.context, '.', `${s} is built from the Dockerfile`);
      assert.match(services[s]!.build?.args?.BASE_IMAGE ?? '', /^\$\{BASE_IMAGE:-.+\}$/, `${s}: the base image is a build argument`);
      assert.equal(services[s]!.profiles, undefined, `${s} always runs`);
    }
    for (const s of ['postgres', 'redis']) assert.ok(services[s]!.image && !services[s]!.profiles && services[s]!.healthcheck?.test, s);
    for (const s of ['minio', 'minio-bucket']) assert.deepEqual(services[s]!.profiles, ['s3'], `${s} only with --profile s3`);
    // The order the README's "Running at scale" gives: migrate first, once, then the others.
    assert.deepEqual(services.api!.depends_on, { migrate: { condition: 'service_completed_successfully' }, redis: { condition: 'service_healthy' } });
    assert.deepEqual(services.worker!.depends_on, { migrate: { condition: 'service_completed_successfully' } });
    assert.deepEqual(services.migrate!.depends_on, { postgres: { condition: 'service_healthy' } });
    assert.deepEqual(services.api!.ports, ['${FORMSIGN_PORT:-3000}:3000']);
    // No HTTP listener in the worker and the migrate step: the image's /healthz check is the API's.
    assert.equal(services.api!.healthcheck, undefined);
    for (const s of ['worker', 'migrate']) assert.equal(services[s]!.healthcheck?.disable, true, s);
  });

  it('sets exactly the env example\'s variables (the API adds WORKER, HOST and PORT), with its fixed values', () => {
    for (const s of FORMSIGN) {
      const env = environmentOf(services[s]!);
      const shared = Object.keys(env).filter((k) => !(s === 'api' && API_ADDS.includes(k)));
      assert.deepEqual(shared.sort(), Object.keys(example).sort(), `${s}: the variables of deploy/formsign.env.example`);
    }
    assert.deepEqual(API_ADDS.map((k) => environmentOf(services.api!)[k]), ['off', '0.0.0.0', '3000']);
    // Values that are not addresses or secrets are the same as the example's.
    const env = environmentOf(services.api!);
    for (const k of ['MIGRATE_ON_START', 'SHUTDOWN_GRACE_MS', 'LOG_FORMAT', 'DEFAULT_PLAN', 'PLAN_TRIAL_MONTHLY_CALLS', 'PLAN_PAID_MONTHLY_CALLS']) {
      assert.equal(env[k], example[k], k);
    }
  });

  it('with an empty .env, each process accepts its environment: PostgreSQL and Redis of this file, files in the data volume', () => {
    for (const s of FORMSIGN) {
      const config = loadConfig(environmentOf(services[s]!), false);
      assert.equal(new URL(config.databaseUrl!).host, 'postgres:5432', s);
      assert.equal(new URL(config.redisUrl!).host, 'redis:6379', s);
      assert.equal(config.s3, undefined, `${s}: no S3 unless configured`);
      assert.equal(config.migrateOnStart, false);
      assert.equal(config.dataDir, '/data');
      assert.deepEqual(services[s]!.volumes, ['formsign-data:/data'], `${s}: DATA_DIR is the shared volume`);
      assert.equal(config.plans.signUpPlan, 'trial');
    }
    // The database the URL names is the one the postgres service makes, with its password.
    const pg = environmentOf(services.postgres!);
    const url = new URL(environmentOf(services.api!).DATABASE_URL!);
    assert.deepEqual([url.username, url.password, url.pathname], [pg.POSTGRES_USER, pg.POSTGRES_PASSWORD, `/${pg.POSTGRES_DB}`]);
    const secret = new URL(environmentOf(services.api!, { POSTGRES_PASSWORD: 's3cret' }).DATABASE_URL!).password;
    assert.equal([secret, environmentOf(services.postgres!, { POSTGRES_PASSWORD: 's3cret' }).POSTGRES_PASSWORD].join(), 's3cret,s3cret', 'one password for both');
    assert.ok(Object.keys(compose.volumes).includes('formsign-data'));
  });

  it('with the s3 profile\'s .env, the processes use the MinIO service and the bucket job makes their bucket', () => {
    const dotenv = { S3_ENDPOINT: 'http://minio:9000', S3_BUCKET: 'formsign', S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'formsign', S3_SECRET_ACCESS_KEY: 'change-me-minio' };
    for (const s of FORMSIGN) {
      const config = loadConfig(environmentOf(services[s]!, dotenv), false);
      assert.deepEqual(config.s3 && { ...config.s3 }, { endpoint: 'http://minio:9000', bucket: 'formsign', region: 'us-east-1', accessKeyId: 'formsign', secretAccessKey: 'change-me-minio' }, s);
    }
    const minio = environmentOf(services.minio!, dotenv);
    assert.deepEqual([minio.MINIO_ROOT_USER, minio.MINIO_ROOT_PASSWORD], ['formsign', 'change-me-minio']);
    assert.equal(environmentOf(services['minio-bucket']!, dotenv).S3_BUCKET, 'formsign');
  });

  it('the stop timeout outlasts SHUTDOWN_GRACE_MS', () => {
    for (const s of ['api', 'worker']) assert.equal(services[s]!.stop_grace_period, '30s', s);
    assert.ok(Number(example.SHUTDOWN_GRACE_MS) < 30_000);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  // Instructions, continuation lines joined.
  const instructions = dockerfile.replace(/\\\n/g, ' ').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
  const all = (word: string) => instructions.filter((l) => l.startsWith(`${word} `));

  it('builds in stages and runs in a last one, on the BASE_IMAGE build argument', () => {
    assert.match(instructions[0]!, /^ARG BASE_IMAGE=\S+/, 'the base image is a build argument, declared before the first FROM');
    assert.deepEqual(all('FROM'), ['FROM ${BASE_IMAGE} AS deps', 'FROM deps AS prod-deps', 'FROM deps AS build', 'FROM ${BASE_IMAGE} AS runtime']);
    const runtime = instructions.slice(instructions.indexOf('FROM ${BASE_IMAGE} AS runtime'));
    const copies = runtime.filter((l) => l.startsWith('COPY '));
    assert.ok(copies.every((l) => /^COPY --from=(build|prod-deps) /.test(l)), 'the runtime takes only what the build made');
    assert.deepEqual(copies.filter((l) => l.includes('node_modules')), ['COPY --from=prod-deps /app/node_modules ./node_modules'], 'without the development packages');
    assert.ok(!runtime.some((l) => /apt-get|qpdf|poppler/.test(l)), 'no packages in the runtime: the server starts no programs');
  });

  it('runs formsign serve as a non-root user, with DATA_DIR as a volume and a health check on /healthz', () => {
    const user = all('USER').at(-1);
    assert.match(user ?? '', /^USER ([1-9]\d*):([1-9]\d*)$/, 'a numeric non-root user');
    assert.deepEqual(all('VOLUME'), ['VOLUME ["/data"]']);
    assert.ok(all('ENV').some((l) => / DATA_DIR=\/data( |$)/.test(l) && / HOST=0\.0\.0\.0( |$)/.test(l)));
    const health = all('HEALTHCHECK');
    assert.equal(health.length, 1);
    assert.match(health[0]!, /CMD \["node", "-e", ".*\/healthz/);
    assert.deepEqual([all('ENTRYPOINT'), all('CMD')], [['ENTRYPOINT ["formsign"]'], ['CMD ["serve"]']]);
  });

  it('the build context leaves out what the build makes itself', () => {
    const ignored = read('.dockerignore').split('\n').filter((l) => l && !l.startsWith('#'));
    for (const p of ['**/node_modules', 'dist', 'web/dist', 'data', '.git']) assert.ok(ignored.includes(p), p);
  });
});
