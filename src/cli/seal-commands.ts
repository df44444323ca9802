import { parseArgs } from 'node:util';
import type { Deps } from '../deps.js';
import { resealFormById } from '../domain/signing/reseal-form.js';
import { print, UsageError } from './output.js';

type Handler = (deps: Deps, args: string[], json: boolean) => Promise<void>;

/** Evidence commands (issue 25): `forms reseal ID` retries a seal that failed (every TSA down). */
export const SEAL_COMMANDS: Record<string, Handler> = {
  async 'forms reseal'(deps, args, json) {
    const { positionals } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: true, strict: true });
    const id = positionals[0];
    if (!id || positionals.length > 1) throw new UsageError('usage: forms reseal FORM_ID');
    const form = JSON.parse((await resealFormById(deps.domain, id)).json) as { id: string; sealing: { status: string } | null };
    print(json, form, () => `Form ${form.id} is being sealed again (sealing ${form.sealing?.status ?? 'pending'}); it becomes signed once the seal is stored.`);
  },
};

export const SEAL_USAGE = `  forms reseal FORM_ID                    seal again a form whose sealing failed (e.g. every TSA was down)`;
