import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import type { Deps } from '../deps.js';
import { createAccount, getAccount, setAccountLimits, setAccountPlan } from '../domain/accounts/manage-accounts.js';
import { OPERATOR } from '../domain/activity/record-activity.js';
import { createApiKey, listKeys, revokeKey } from '../domain/keys/manage-keys.js';
import { keyActivity } from '../domain/users/account-keys.js';
import type { Mode } from '../lib/partition.js';
import { NOTIFY_COMMANDS, NOTIFY_USAGE } from './notify-commands.js';
import { FORM_COMMANDS, FORM_USAGE } from './form-commands.js';
import { OUTBOX_COMMANDS, OUTBOX_USAGE } from './outbox-commands.js';
import { VERIFY_USAGE } from './verify-command.js';
import { SEAL_COMMANDS, SEAL_USAGE } from './seal-commands.js';
import { USER_COMMANDS, USER_USAGE } from './user-commands.js';
import { ACTIVITY_COMMANDS, ACTIVITY_USAGE } from './activity-commands.js';
import { LOCALE_COMMANDS, LOCALE_USAGE } from './locale-commands.js';
import { RETENTION_COMMANDS, RETENTION_USAGE } from './retention-commands.js';
import { SIGN_IN_COMMANDS, SIGN_IN_USAGE } from './sign-in-commands.js';
import { listAccounts } from './account-list.js';
import { CLI, OperatorError, print, UsageError, warn } from './output.js';
import { readInput } from './read-input.js';

// Operator commands (CONTRACT.md Part C). Each works on the configured DATA_DIR / DATABASE_URL and
// prints a human line, or the object as JSON with --json.

type Handler = (deps: Deps, args: string[], json: boolean) => Promise<void>;

function opts<const O extends Record<string, { type: 'string' }>>(args: string[], options: O) {
  const parsed = parseArgs({ args, options: { ...options, json: { type: 'boolean' } }, allowPositionals: true, strict: true });
  return { values: parsed.values as { [K in keyof O]?: string }, positionals: parsed.positionals };
}

function need(value: string | boolean | undefined, flag: string): string {
  if (typeof value !== 'string' || value === '') throw new UsageError(`${flag} is required`);
  return value;
}

function mode(value: string | boolean | undefined): Mode {
  const m = need(value, '--mode');
  if (m !== 'test' && m !== 'live') throw new UsageError('--mode must be test or live');
  return m;
}

function limit(value: string | boolean | undefined, flag: string): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'default') return null;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive whole number (or "default")`);
  return n;
}

/** `--monthly`: a number, `default` (the plan's quota) or `none` (no monthly quota). */
function monthlyLimit(value: string | boolean | undefined): number | null | 'none' | undefined {
  if (value === 'none') return 'none';
  try {
    return limit(value, '--monthly');
  } catch {
    throw new UsageError('--monthly must be a positive whole number, "default" (the plan\'s quota) or "none" (no monthly quota)');
  }
}

const describeMonthly = (a: { unmetered: boolean; monthly_limit: number | null }) => (a.unmetered ? 'no monthly quota' : `monthly ${a.monthly_limit ?? 'plan default'}`);

const HANDLERS: Record<string, Handler> = {
  async migrate(deps, _args, json) {
    // Opening the store applied pending migrations, after any other migrator (db/migration-lock.ts); report what this run applied.
    const applied = deps.migrated;
    print(json, { dialect: deps.database.dialect, applied }, () =>
      applied.length === 0 ? `Database (${deps.database.dialect}) is up to date; nothing to apply.` : `Applied ${applied.join(', ')} to the ${deps.database.dialect} database; it is up to date.`,
    );
  },
  async 'accounts list'(deps, args, json) {
    opts(args, {});
    const accounts = await listAccounts(deps.database.db);
    print(json, { object: 'list', data: accounts }, () =>
      accounts.length === 0 ? 'No accounts.' : accounts.map((a) => `${a.id}  ${a.plan.padEnd(5)}  ${a.name}${a.email ? `  <${a.email}>` : ''}`).join('\n'),
    );
  },
  async 'accounts create'(deps, args, json) {
    const { values } = opts(args, { name: { type: 'string' }, plan: { type: 'string' }, email: { type: 'string' }, monthly: { type: 'string' } });
    // The operator's own accounts: paid (live mode) with no monthly quota, unless told otherwise.
    const plan = values.plan ?? 'paid';
    if (plan !== 'trial' && plan !== 'paid') throw new UsageError('--plan must be trial or paid');
    const given = monthlyLimit(values.monthly);
    const monthly = given === undefined ? 'none' : given;
    let account = await createAccount(deps.domain, { name: need(values.name, '--name'), plan, email: values.email, unmetered: monthly === 'none' });
    if (typeof monthly === 'number') account = await setAccountLimits(deps.domain, account.id, { monthly });
    print(json, account, () => `Created account ${account.id} (${account.name}, ${account.plan}, ${describeMonthly(account)})`);
  },
  async 'accounts set-plan'(deps, args, json) {
    const { positionals } = opts(args, {});
    const [id, plan] = positionals;
    if (!id || (plan !== 'trial' && plan !== 'paid')) throw new UsageError('usage: accounts set-plan ACCOUNT_ID trial|paid');
    const account = await setAccountPlan(deps.domain, id, plan);
    print(json, account, () => `Account ${account.id} is now on the ${account.plan} plan.`);
  },
  async 'accounts set-limits'(deps, args, json) {
    const { values, positionals } = opts(args, { monthly: { type: 'string' }, 'per-minute': { type: 'string' } });
    const id = positionals[0];
    if (!id) throw new UsageError('usage: accounts set-limits ACCOUNT_ID [--monthly N|default|none] [--per-minute N|default]');
    const monthly = monthlyLimit(values.monthly);
    const perMinute = limit(values['per-minute'], '--per-minute');
    const account = await setAccountLimits(deps.domain, id, { ...(monthly !== undefined ? { monthly } : {}), ...(perMinute !== undefined ? { perMinute } : {}) });
    // The servers read limits back with each quota flush: no restart needed.
    print(json, account, () => `Account ${account.id}: ${describeMonthly(account)}, per minute ${account.per_minute_limit ?? 'endpoint defaults'}. Running servers apply it within a few seconds.`);
  },
  async 'keys create'(deps, args, json) {
    const { values } = opts(args, { account: { type: 'string' }, mode: { type: 'string' }, label: { type: 'string' } });
    const key = await createApiKey(deps.domain, { accountId: need(values.account, '--account'), mode: mode(values.mode), label: values.label }, keyActivity(deps.domain, OPERATOR, 'key.created'));
    print(json, key, () => `Created ${key.mode} key ${key.id}:\n  ${key.key}\nIt is shown this once; only its hash is stored.`);
    if (key.mode === 'live') {
      const account = await getAccount(deps.domain, key.account_id);
      if (account.plan !== 'paid') warn(`account ${account.id} is on the ${account.plan} plan: this live key gets 402 plan_required until \`${CLI} accounts set-plan ${account.id} paid\``);
    }
  },
  async 'keys list'(deps, args, json) {
    const { values } = opts(args, { account: { type: 'string' } });
    const keys = await listKeys(deps.domain, need(values.account, '--account'));
    print(json, { object: 'list', data: keys }, () =>
      keys.length === 0 ? 'No keys.' : keys.map((k) => `${k.id}  ${k.display}  ${k.mode}  ${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}  ${k.label ?? ''}`).join('\n'),
    );
  },
  async 'keys revoke'(deps, args, json) {
    const { positionals } = opts(args, {});
    if (!positionals[0]) throw new UsageError('usage: keys revoke KEY_ID');
    const key = await revokeKey(deps.domain, positionals[0], keyActivity(deps.domain, OPERATOR, 'key.revoked'));
    print(json, key, () => `Revoked ${key.id} (${key.display}). Servers stop accepting it within a few seconds.`);
  },
  async 'templates import'(deps, args, json) {
    const { values, positionals } = opts(args, { account: { type: 'string' }, mode: { type: 'string' }, name: { type: 'string' }, fields: { type: 'string' } });
    const file = positionals[0];
    if (!file) throw new UsageError('usage: templates import FILE.pdf --account ID --mode test|live [--name N] [--fields fields.json]');
    const pdf = readInput(file);
    const fields = values.fields === undefined ? undefined : parseJsonFile(values.fields);
    const { importTemplate } = await import('../domain/templates/import-template.js');
    const template = await importTemplate(deps.domain, { accountId: need(values.account, '--account'), mode: mode(values.mode) }, {
      pdf,
      name: values.name,
      fields,
      fallbackName: path.basename(file).replace(/\.pdf$/i, ''),
    });
    print(json, template, () =>
      [`Imported ${template.id} "${template.name}": ${template.page_count} page(s), ${template.fields.length} field(s).`, ...template.warnings.map((w) => `  warning: ${w}`)].join('\n'),
    );
  },
  ...OUTBOX_COMMANDS,
  ...USER_COMMANDS,
  ...SEAL_COMMANDS,
  ...NOTIFY_COMMANDS,
  ...LOCALE_COMMANDS,
  ...RETENTION_COMMANDS,
  ...SIGN_IN_COMMANDS,
  ...FORM_COMMANDS,
  ...ACTIVITY_COMMANDS,
};

function parseJsonFile(file: string): unknown {
  try {
    return JSON.parse(readInput(file).toString('utf8')) as unknown;
  } catch (error) {
    if (error instanceof SyntaxError) throw new OperatorError(`${file} is not valid JSON (${error.message})`);
    throw error;
  }
}

export const USAGE = `Usage: formsign <command> [--json]
  serve                                   run the HTTP server (npm start)
  migrate                                 apply database migrations, one process at a time, and exit
  accounts list
  accounts create --name N [--plan trial|paid] [--email E] [--monthly N|default|none]
                                          (default: paid, no monthly quota)
  accounts set-plan ACCOUNT_ID trial|paid
  accounts set-limits ACCOUNT_ID [--monthly N|default|none] [--per-minute N|default]
  keys create --account ID --mode test|live [--label L]
  keys list --account ID
  keys revoke KEY_ID
  templates import FILE.pdf --account ID --mode test|live [--name N] [--fields fields.json]
${OUTBOX_USAGE}
${USER_USAGE}
${NOTIFY_USAGE}
${LOCALE_USAGE}
${RETENTION_USAGE}
${SIGN_IN_USAGE}
${ACTIVITY_USAGE}
${SEAL_USAGE}
${FORM_USAGE}
${VERIFY_USAGE}`;

export function findCommand(argv: string[]): { name: string; handler: Handler; rest: string[] } | undefined {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    const handler = HANDLERS[name];
    if (handler) return { name, handler, rest: argv.slice(words) };
  }
  return undefined;
}

export async function runCommand(config: Config, argv: string[]): Promise<void> {
  const found = findCommand(argv);
  if (!found) {
    // Name the word that was not understood: `keys frobnicate` under a known group, else the first.
    const group = Object.keys(HANDLERS).some((name) => name.startsWith(`${argv[0]} `));
    throw new UsageError(`unknown command '${argv.slice(0, group ? 2 : 1).join(' ')}'\n\n${USAGE}`);
  }
  const json = argv.includes('--json');
  // Loaded on use: the store and everything on it cost seconds to load, the usage text should not.
  const { openDeps } = await import('./open-deps.js');
  // `migrate` applies what is pending even where processes do not (MIGRATE_ON_START=off).
  // `worker` is a long-running process: it waits for a database that is down at its start (start-up.ts),
  // and a SIGTERM or Ctrl-C meanwhile ends it at once (nothing has started that needs a grace).
  const waits = found.name === 'worker';
  const leave = () => process.exit(0);
  if (waits) process.once('SIGTERM', leave).once('SIGINT', leave);
  let deps: Deps;
  try {
    deps = await openDeps(config, found.name === 'migrate' ? { migrate: true } : waits ? { startUp: (await import('./start-up.js')).startUpWait(config) } : {});
  } finally {
    process.off('SIGTERM', leave).off('SIGINT', leave);
  }
  try {
    await found.handler(deps, found.rest, json);
  } finally {
    await deps.close();
  }
}
