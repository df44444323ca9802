import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { SSO_CALLBACK_PATH } from './lib/sso-paths.js';

// The only module that reads process.env (CONTRACT.md Part C). Parsed once, frozen, passed down.

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const url = (protocols: string[]) =>
  z.string().refine((v) => {
    try {
      return protocols.includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);

const PORT_RANGE = 'must be a whole number between 1 and 65535';

// TSA_URLS (issue 25): the RFC 3161 time-stamping authorities seals ask, in order.
const TSA_URLS_FORMAT = 'must be a comma-separated list of http:// or https:// URLs';
const tsaUrls = z.string().transform((v, ctx): string[] => {
  const urls = v.split(',').map((u) => u.trim()).filter((u) => u !== '');
  const valid = (u: string): boolean => {
    try {
      return ['http:', 'https:'].includes(new URL(u).protocol);
    } catch {
      return false;
    }
  };
  if (urls.length === 0 || !urls.every(valid)) {
    ctx.addIssue({ code: 'custom', message: TSA_URLS_FORMAT });
    return z.NEVER;
  }
  return urls;
});

// TRUST_PROXY: whose X-Forwarded-For to believe for the client's address (Fastify's trustProxy).
// `true` trusts every peer; a list names the proxies by address, CIDR range or proxy-addr's names.
// A hop count is refused: this Fastify trusts no peer for a number (it cannot tell the proxy from a
// client), so it would silently do nothing.
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
function proxyEntryValid(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const slash = entry.indexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return false;
  if (slash < 0) return true;
  const prefix = entry.slice(slash + 1);
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
const TRUST_PROXY_FORMAT = 'must be true, false, or a comma-separated list of proxy addresses or CIDR ranges (such as 10.0.0.1,192.168.0.0/16, or loopback, linklocal, uniquelocal)';
const trustProxy = z.string().transform((v, ctx): boolean | string[] => {
  const value = v.trim().toLowerCase();
  if (value === 'true' || value === 'false') return value === 'true';
  const entries = value.split(',').map((e) => e.trim());
  if (entries.some((e) => !proxyEntryValid(e))) {
    ctx.addIssue({ code: 'custom', message: /^\d+$/.test(value) ? `${TRUST_PROXY_FORMAT}; a number of hops is not supported: name the proxies' addresses` : TRUST_PROXY_FORMAT });
    return z.NEVER;
  }
  return entries;
});

// An identity provider is reached over https; plain http only on this machine (a provider in a test,
// or one behind the same host), where nothing on the network can read or change the exchange.
function oidcIssuerValid(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || (u.protocol === 'http:' && /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(u.hostname));
  } catch {
    return false;
  }
}

const schema = z
  .object({
    // 0 (any free port) stays accepted for tests; people are told the range they mean.
    PORT: z.coerce.number({ error: PORT_RANGE }).int({ error: PORT_RANGE }).min(0, { error: PORT_RANGE }).max(65535, { error: PORT_RANGE }).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    BASE_URL: url(['http:', 'https:']).optional(),
    TRUST_PROXY: trustProxy.default(false),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
    PG_PREPARED_STATEMENTS: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
    REDIS_URL: url(['redis:', 'rediss:']).optional(),
    S3_ENDPOINT: url(['http:', 'https:']).optional(),
    S3_BUCKET: z.string().min(1).optional(),
    S3_REGION: z.string().min(1).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    SMTP_URL: url(['smtp:', 'smtps:']).optional(),
    MAIL_FROM: z.string().min(3).default('Formsign <no-reply@localhost>'),
    // The completed copy: a sealed PDF up to this size is attached, a larger one sent as a 30-day link.
    MAIL_ATTACH_MAX_BYTES: z.coerce.number().int().min(0).max(50 * 1024 * 1024).default(10 * 1024 * 1024),
    SMS_PROVIDER_URL: url(['http:', 'https:']).optional(),
    SMS_ACCOUNT_SID: z.string().min(1).optional(),
    SMS_AUTH_TOKEN: z.string().min(1).optional(),
    SMS_FROM: z.string().min(1).optional(),
    SIGNING_CERT_P12: z.string().min(1).optional(),
    SIGNING_CERT_PASSWORD: z.string().optional(),
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: bool.default(false),
    WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(1000).default(1),
    LLM_BASE_URL: url(['http:', 'https:']).optional(),
    LLM_API_KEY: z.string().min(1).optional(),
    LLM_MODEL: z.string().min(1).optional(),
    // Issue 41: the LibreOffice program Word and OpenDocument uploads are converted with.
    LIBREOFFICE_PATH: z.string().min(1).default('soffice'),
    LIBREOFFICE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
    WORKER: z.enum(['inline', 'off']).default('inline'),
    // Issue 27: off in production, where `formsign migrate` runs once per release before the processes start.
    MIGRATE_ON_START: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
    PDF_WORKERS: z.coerce.number().int().min(1).max(256).optional(),
    PDF_QUEUE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(64),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    // Evidence (issue 25): timestamps for seals.
    TSA_URLS: tsaUrls.optional(),
    TSA_USERNAME: z.string().min(1).optional(),
    TSA_PASSWORD: z.string().optional(),
    TSA_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    // Plans (issue 37): what a dashboard sign-up gets, and each plan's monthly API calls. Accounts the
    // operator makes (and the first-start one) have no monthly quota unless told otherwise.
    DEFAULT_PLAN: z.enum(['trial', 'paid'], { error: 'must be trial or paid' }).default('trial'),
    PLAN_TRIAL_MONTHLY_CALLS: z.coerce.number().int().min(1).max(1_000_000_000).default(1_000),
    PLAN_PAID_MONTHLY_CALLS: z.coerce.number().int().min(1).max(1_000_000_000).default(10_000),
    // Single sign-on (issue 39): the OpenID Connect provider the dashboard's claimed domains sign in with.
    OIDC_ISSUER_URL: z.string().refine(oidcIssuerValid, 'must be an https:// URL (http:// only for localhost or 127.0.0.1)').optional(),
    OIDC_CLIENT_ID: z.string().min(1).max(500).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
  })
  .superRefine((c, ctx) => {
    // S3 is all-or-nothing: a half-configured bucket would silently fall back to local files.
    const s3 = ['S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
    const set = s3.filter((k) => c[k] !== undefined);
    if ((set.length > 0 || c.S3_ENDPOINT) && set.length < s3.length) {
      for (const k of s3.filter((k) => c[k] === undefined)) {
        ctx.addIssue({ code: 'custom', path: [k], message: 'is required when any S3_* variable is set' });
      }
    }
    // An SMS gateway needs all four: a missing one would only show as every SMS failing later.
    const sms = ['SMS_PROVIDER_URL', 'SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN', 'SMS_FROM'] as const;
    if (sms.some((k) => c[k] !== undefined)) {
      for (const k of sms.filter((k) => c[k] === undefined)) {
        ctx.addIssue({ code: 'custom', path: [k], message: 'is required when any SMS_* variable is set' });
      }
    }
    if ((c.TSA_USERNAME !== undefined || c.TSA_PASSWORD !== undefined) && !c.TSA_URLS) {
      ctx.addIssue({ code: 'custom', path: ['TSA_URLS'], message: 'is required when TSA_USERNAME or TSA_PASSWORD is set' });
    }
    // OIDC: the issuer and the client id together; a secret only with them (without one: a public client, PKCE only).
    if ((c.OIDC_ISSUER_URL === undefined) !== (c.OIDC_CLIENT_ID === undefined) || (c.OIDC_CLIENT_SECRET !== undefined && c.OIDC_ISSUER_URL === undefined)) {
      const missing = c.OIDC_ISSUER_URL === undefined ? 'OIDC_ISSUER_URL' : 'OIDC_CLIENT_ID';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'is required when any OIDC_* variable is set' });
    }
    if (c.SIGNING_CERT_PASSWORD !== undefined && !c.SIGNING_CERT_P12) {
      ctx.addIssue({ code: 'custom', path: ['SIGNING_CERT_P12'], message: 'is required when SIGNING_CERT_PASSWORD is set' });
    }
  });

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly baseUrl: string;
  /** TRUST_PROXY: which peers' X-Forwarded-For gives the client's address (Fastify's trustProxy). */
  readonly trustProxy: boolean | readonly string[];
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  /** PG_PREPARED_STATEMENTS=off: no named statements, for PgBouncer in transaction mode (pg-named-statements.ts). */
  readonly pgPreparedStatements: boolean;
  readonly redisUrl: string | undefined;
  readonly s3:
    | { readonly endpoint: string | undefined; readonly bucket: string; readonly region: string; readonly accessKeyId: string; readonly secretAccessKey: string }
    | undefined;
  readonly smtp: { readonly url: string | undefined; readonly from: string };
  /** LIBREOFFICE_PATH and LIBREOFFICE_TIMEOUT_MS: converting Word and OpenDocument uploads. */
  readonly officeConverter: { readonly command: string; readonly timeoutMs: number };
  /** MAIL_ATTACH_MAX_BYTES: the largest sealed PDF a completed copy attaches (default 10 MiB). */
  readonly mailAttachMaxBytes: number;
  /** The plans' terms (domain/plans PlanSettings). */
  readonly plans: { readonly signUpPlan: 'trial' | 'paid'; readonly monthlyCalls: { readonly trial: number; readonly paid: number } };
  readonly sms: { readonly url: string; readonly accountSid: string | undefined; readonly authToken: string | undefined; readonly from: string | undefined } | undefined;
  readonly signingCert: { readonly p12Path: string; readonly password: string } | undefined;
  readonly webhooks: { readonly allowPrivateNetworks: boolean; readonly retryScale: number };
  readonly llm: { readonly baseUrl: string; readonly apiKey: string | undefined; readonly model: string } | undefined;
  readonly worker: 'inline' | 'off';
  /**
   * MIGRATE_ON_START: on (the default) — every process applies pending migrations as it opens the
   * store, one at a time (db/migration-lock.ts); off — only `formsign migrate` does, and a process
   * whose database is behind refuses to start, naming the command.
   */
  readonly migrateOnStart: boolean;
  /**
   * SHUTDOWN_GRACE_MS: on SIGTERM, how long in-flight requests and running jobs get to finish before
   * connections are closed and jobs handed back (default 10 s).
   */
  readonly shutdownGraceMs: number;
  /** PDF worker threads (default: CPU count − 1, at least 1) and how many PDF jobs may wait for one. */
  readonly pdf: { readonly workers: number; readonly queueLimit: number };
  readonly logLevel: string;
  /** JSON lines for services; one short line per request for people (the default on a terminal). */
  readonly logFormat: 'json' | 'pretty';
  /** The bearer token GET /metrics requires; unset: /metrics is open on the listening address. */
  readonly metricsToken: string | undefined;
  /** TSA_URLS (in order), TSA_USERNAME/TSA_PASSWORD (HTTP basic), TSA_TIMEOUT_MS (each); unset: seals are B-B. */
  readonly tsa: { readonly urls: readonly string[]; readonly timeoutMs: number; readonly username: string | undefined; readonly password: string | undefined } | undefined;
  /**
   * OIDC_ISSUER_URL, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET (issue 39): the dashboard's single sign-on;
   * the provider sends people back to `redirectUri` (BASE_URL + /dashboard/sso/callback).
   */
  readonly oidc: { readonly issuerUrl: string; readonly clientId: string; readonly clientSecret: string | undefined; readonly redirectUri: string } | undefined;
}

export class ConfigError extends Error {
  constructor(readonly variable: string, detail: string) {
    super(`Invalid configuration: ${variable} ${detail}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment once; the first invalid variable is named in the error. */
export function loadConfig(env: Record<string, string | undefined> = process.env, stdoutIsTty = process.stdout.isTTY === true): Config {
  // An empty variable means "unset", as in most shells' `VAR= cmd` habit.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(variable, issue?.message ?? 'is invalid');
  }
  const c = parsed.data;
  const dataDir = path.resolve(c.DATA_DIR);
  const baseUrl = (c.BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, '');
  const config: Config = {
    port: c.PORT,
    host: c.HOST,
    baseUrl,
    trustProxy: c.TRUST_PROXY,
    dataDir,
    databaseUrl: c.DATABASE_URL,
    pgPreparedStatements: c.PG_PREPARED_STATEMENTS === 'on',
    redisUrl: c.REDIS_URL,
    s3: c.S3_BUCKET
      ? { endpoint: c.S3_ENDPOINT, bucket: c.S3_BUCKET, region: c.S3_REGION!, accessKeyId: c.S3_ACCESS_KEY_ID!, secretAccessKey: c.S3_SECRET_ACCESS_KEY! }
      : undefined,
    smtp: { url: c.SMTP_URL, from: c.MAIL_FROM },
    mailAttachMaxBytes: c.MAIL_ATTACH_MAX_BYTES,
    officeConverter: { command: c.LIBREOFFICE_PATH, timeoutMs: c.LIBREOFFICE_TIMEOUT_MS },
    plans: { signUpPlan: c.DEFAULT_PLAN, monthlyCalls: { trial: c.PLAN_TRIAL_MONTHLY_CALLS, paid: c.PLAN_PAID_MONTHLY_CALLS } },
    sms: c.SMS_PROVIDER_URL ? { url: c.SMS_PROVIDER_URL, accountSid: c.SMS_ACCOUNT_SID, authToken: c.SMS_AUTH_TOKEN, from: c.SMS_FROM } : undefined,
    signingCert: c.SIGNING_CERT_P12 ? { p12Path: path.resolve(c.SIGNING_CERT_P12), password: c.SIGNING_CERT_PASSWORD ?? '' } : undefined,
    webhooks: { allowPrivateNetworks: c.WEBHOOK_ALLOW_PRIVATE_NETWORKS, retryScale: c.WEBHOOK_RETRY_SCALE },
    llm: c.LLM_BASE_URL ? { baseUrl: c.LLM_BASE_URL, apiKey: c.LLM_API_KEY, model: c.LLM_MODEL ?? 'gpt-4o-mini' } : undefined,
    worker: c.WORKER,
    migrateOnStart: c.MIGRATE_ON_START === 'on',
    shutdownGraceMs: c.SHUTDOWN_GRACE_MS,
    pdf: { workers: c.PDF_WORKERS ?? Math.max(1, os.availableParallelism() - 1), queueLimit: c.PDF_QUEUE_LIMIT },
    logLevel: c.LOG_LEVEL,
    logFormat: c.LOG_FORMAT ?? (stdoutIsTty ? 'pretty' : 'json'),
    metricsToken: c.METRICS_TOKEN,
    tsa: c.TSA_URLS ? { urls: c.TSA_URLS, timeoutMs: c.TSA_TIMEOUT_MS, username: c.TSA_USERNAME, password: c.TSA_PASSWORD } : undefined,
    oidc: c.OIDC_ISSUER_URL && c.OIDC_CLIENT_ID ? { issuerUrl: c.OIDC_ISSUER_URL, clientId: c.OIDC_CLIENT_ID, clientSecret: c.OIDC_CLIENT_SECRET, redirectUri: `${baseUrl}${SSO_CALLBACK_PATH}` } : undefined,
  };
  return deepFreeze(config);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
