import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Partition } from './partition.js';

/** What a presigned file address names: a form's signed PDF in a partition, until a time. */
export interface FileClaim {
  readonly formId: string;
  readonly partition: Partition;
  /** Unix seconds. */
  readonly expiresAt: number;
}

export type FileTokenCheck = { ok: true; claim: FileClaim } | { ok: false; reason: 'invalid' | 'expired' };

/**
 * Presigned file addresses (`/api/v1/files/pdf/<token>`). The token is self-contained: the claim — the
 * form id's and account id's 24-character suffixes, the mode, the expiry in base 36 — then a dot and a
 * 128-bit HMAC-SHA256 tag of it under a service key, so serving it needs no lookup beyond the file.
 * Compact on purpose: 79 characters, under the router's 100-character limit on a path parameter. The
 * tag is checked (in constant time) before anything in the claim is believed; an altered token is
 * `invalid`, an intact one past its time `expired`.
 */
export interface FileLinks {
  sign(claim: FileClaim): string;
  check(token: string, nowSeconds: number): FileTokenCheck;
}

const SUFFIX = /^[0-9A-Za-z]{24}$/;
const CLAIM = /^([0-9A-Za-z]{24})([0-9A-Za-z]{24})([lt])([0-9a-z]{1,11})$/;

export function createFileLinks(opts: { key: string }): FileLinks {
  const key = Buffer.from(opts.key, 'base64url');
  if (key.length < 32) throw new Error('The file-link key must hold at least 32 bytes');
  const tag = (body: string) => createHmac('sha256', key).update(`file:${body}`).digest().subarray(0, 16);
  return {
    sign(claim) {
      const form = claim.formId.slice('form_'.length);
      const account = claim.partition.accountId.slice('acct_'.length);
      if (!SUFFIX.test(form) || !SUFFIX.test(account)) throw new Error('file links name forms and accounts by their ids');
      const body = `${form}${account}${claim.partition.mode === 'live' ? 'l' : 't'}${claim.expiresAt.toString(36)}`;
      return `${body}.${tag(body).toString('base64url')}`;
    },
    check(token, nowSeconds) {
      const dot = token.indexOf('.');
      if (dot <= 0 || token.length > 100) return { ok: false, reason: 'invalid' };
      const body = token.slice(0, dot);
      // The tag is compared as text, on its one canonical spelling: decoding it first (Node's base64url
      // decoder skips characters outside the alphabet, ignores padding and the unused bits of the last
      // character) served tokens with `=`, `*`, a space or an altered last character.
      const given = Buffer.from(token.slice(dot + 1), 'utf8');
      const expected = Buffer.from(tag(body).toString('base64url'), 'utf8');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
      const m = CLAIM.exec(body);
      if (!m) return { ok: false, reason: 'invalid' };
      const expiresAt = parseInt(m[4]!, 36);
      // The expiry too has one spelling (no leading zeros), so one claim is one token.
      if (expiresAt.toString(36) !== m[4]) return { ok: false, reason: 'invalid' };
      if (nowSeconds >= expiresAt) return { ok: false, reason: 'expired' };
      return { ok: true, claim: { formId: `form_${m[1]}`, partition: { accountId: `acct_${m[2]}`, mode: m[3] === 'l' ? 'live' : 'test' }, expiresAt } };
    },
  };
}
