import { parseArgs } from 'node:util';
import type { Deps } from '../deps.js';
import { expireFormById } from '../domain/forms/expire-form-now.js';
import { parseJson } from '../domain/json.js';
import { print, UsageError } from './output.js';

type Handler = (deps: Deps, args: string[], json: boolean) => Promise<void>;

/** Operator commands on one form, named by its id (any account, either mode). */
export const FORM_COMMANDS: Record<string, Handler> = {
  async 'forms expire'(deps, args, json) {
    const { positionals } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: true, strict: true });
    if (positionals.length !== 1) throw new UsageError('usage: forms expire FORM_ID');
    const form = parseJson(await expireFormById(deps.domain, positionals[0]!));
    print(json, form, () => `Form ${form.id} is expired (expires_at ${String(form.expires_at)}); form.expired was recorded for its webhooks.`);
  },
};

export const FORM_USAGE = `  forms expire FORM_ID                    expire a sent or viewed form now (emits form.expired)`;
