import { findKeyWithAccountByHash, touchApiKey } from '../../db/repositories/api-keys.js';
import type { Plan } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/crypto.js';
import { Lru } from '../../lib/lru.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';
import { assertModeAllowed } from '../plans/plan-rules.js';

const KEY_FORMAT = /^fk_(live|test)_[0-9a-f]{32}$/;

interface Found {
  keyId: string;
  partition: Partition;
  plan: Plan;
}

interface CacheEntry<T> {
  value: T;
  expiresAt: number;
}

// Built only on failure: an Error captures a stack trace, too dear for every successful request.
const invalidKey = () => new AppError('api_key_invalid', 'The API key is not valid. Check that it was copied whole and has not been revoked.');

export type Authenticated = Partition & { keyId: string };

export interface Authenticator {
  /** The key's partition: at once when the key is cached, else once it is looked up; refusals reject. */
  authenticate(authorization: string | undefined): Authenticated | Promise<Authenticated>;
  /** Drops cached entries, e.g. after a revoke in the same process. */
  invalidate(): void;
  /** Entries held, for tests and metrics: both caches are bounded. */
  cacheSizes(): { valid: number; invalid: number };
}

export interface AuthenticatorOptions {
  ttlMs: number;
  /** Bound of the cache of valid keys. */
  maxEntries: number;
  /** Bound of the cache of unknown and revoked keys (default: maxEntries). */
  maxInvalidEntries?: number;
  touchEveryMs: number;
}

/**
 * Keys are looked up by SHA-256, so the comparison never touches the secret byte by byte, and every
 * failure (malformed, unknown, revoked) answers the same. Results are cached for `ttlMs` so the hot path
 * costs no query; that bounds how long a revocation or plan change takes to apply.
 */
export function createAuthenticator(deps: Pick<DomainDeps, 'db' | 'clock'>, opts: AuthenticatorOptions): Authenticator {
  // Two bounded caches, so that a flood of made-up keys (each one a miss, each one cached as invalid)
  // only ever evicts other invalid keys: the valid keys in use stay cached and cost no query.
  const valid = new Lru<string, CacheEntry<Found>>(opts.maxEntries);
  const invalid = new Lru<string, CacheEntry<undefined>>(opts.maxInvalidEntries ?? opts.maxEntries);
  const lastTouched = new Lru<string, number>(opts.maxEntries);

  async function lookup(hash: string): Promise<Found | undefined> {
    const row = await findKeyWithAccountByHash(deps.db, hash);
    const found = row && !row.key.revoked_at ? { keyId: row.key.id, partition: { accountId: row.key.account_id, mode: row.key.mode }, plan: row.plan } : undefined;
    const expiresAt = Date.now() + opts.ttlMs;
    if (found) {
      invalid.delete(hash);
      valid.set(hash, { value: found, expiresAt });
    } else {
      valid.delete(hash);
      invalid.set(hash, { value: undefined, expiresAt });
    }
    return found;
  }

  function admit(found: Found | undefined): Authenticated {
    if (!found) throw invalidKey();
    // The one rule for live mode, shared with the dashboard.
    assertModeAllowed(found.plan, found.partition.mode);
    touch(found.keyId);
    return { ...found.partition, keyId: found.keyId };
  }

  // last_used_at is informational: written at most once per interval per key, off the request's path.
  function touch(keyId: string): void {
    const now = Date.now();
    if ((lastTouched.get(keyId) ?? 0) + opts.touchEveryMs > now) return;
    lastTouched.set(keyId, now);
    void touchApiKey(deps.db, keyId, isoNow(deps.clock)).catch(() => lastTouched.delete(keyId));
  }

  return {
    authenticate(authorization) {
      // A cached key answers without a promise (the hot path); any refusal is a rejected promise,
      // never a synchronous throw, so a caller has one way to see it.
      try {
        if (!authorization) throw new AppError('api_key_missing', 'No API key was given. Send it as `Authorization: Bearer fk_test_…`.');
        const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
        const key = match?.[1] ?? '';
        if (!KEY_FORMAT.test(key)) throw invalidKey();
        const hash = sha256Hex(key);
        const hit = valid.get(hash) ?? invalid.get(hash);
        if (hit && hit.expiresAt > Date.now()) return admit(hit.value);
        return lookup(hash).then(admit);
      } catch (error) {
        return Promise.reject(error as Error);
      }
    },
    invalidate() {
      valid.clear();
      invalid.clear();
    },
    cacheSizes: () => ({ valid: valid.size, invalid: invalid.size }),
  };
}
