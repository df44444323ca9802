import type { Redis } from 'ioredis';
import { loadOnFirstUse } from '../../lib/load-on-first-use.js';
import { windowIndex, previousWeight, type WindowCounts, type WindowStore } from './sliding-window.js';

// The shared window store (REDIS_URL): one Lua script per check, so reading both fixed windows,
// deciding and counting is one atomic round trip, and every server process counts against one limit.
// Window indexes come from the caller's clock (the servers' clocks are assumed close, as for expiry).

const SCRIPT = `
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
local prev = tonumber(redis.call('GET', KEYS[2]) or '0')
local limit = tonumber(ARGV[1])
local weight = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
if cost > 0 and prev * weight + cur + cost <= limit then
  cur = redis.call('INCRBY', KEYS[1], cost)
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return {prev, cur, 1}
end
return {prev, cur, 0}
`;

interface WindowCommand {
  formsignWindow(current: string, previous: string, limit: number, weight: string, cost: number, ttlMs: number): Promise<[number, number, number]>;
}

const ioredis = loadOnFirstUse<typeof import('ioredis')>('ioredis');

export interface RedisWindowOptions {
  url: string;
  windowMs: number;
  /** A command slower than this fails open rather than hold the request. */
  commandTimeoutMs?: number;
  /** Called once per request served without a shared count (Redis down, slow or refusing). */
  onFailOpen(): void;
  /** A warning when Redis stops answering (at most once per `warnEveryMs`), and when it answers again. */
  log(line: string): void;
  warnEveryMs?: number;
  keyPrefix?: string;
}

/**
 * Fails open: when Redis cannot answer, the request passes as if it were the window's first, a
 * metric counts it and a warning is logged at most once per interval; nothing is queued while
 * disconnected (the offline queue is off), so a request never waits for a reconnect. ioredis keeps
 * reconnecting on its own, and the next answer ends the outage.
 */
export class RedisWindowStore implements WindowStore {
  private readonly client: Redis;
  private readonly prefix: string;
  private lastWarnAt = -Infinity;
  private failing = false;

  constructor(private readonly opts: RedisWindowOptions) {
    this.prefix = opts.keyPrefix ?? 'formsign:rl:';
    this.client = new (ioredis().Redis)(opts.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: opts.commandTimeoutMs ?? 500,
      connectTimeout: 2000,
      // Reconnect soon after an outage: at most a second between attempts, forever.
      retryStrategy: (times) => Math.min(times * 100, 1000),
      lazyConnect: false,
    });
    // Without a listener ioredis reports every failed reconnect as an unhandled 'error' event.
    this.client.on('error', (err: Error) => this.failed(err));
    this.client.defineCommand('formsignWindow', { numberOfKeys: 2, lua: SCRIPT });
  }

  hit(key: string, limit: number, cost: number, nowMs: number): Promise<WindowCounts> {
    const index = windowIndex(nowMs, this.opts.windowMs);
    // A hash tag keeps both windows of a key in one cluster slot.
    const base = `${this.prefix}{${key}}:`;
    const weight = previousWeight(nowMs, this.opts.windowMs).toFixed(6);
    const command = this.client as unknown as WindowCommand;
    return command.formsignWindow(`${base}${index}`, `${base}${index - 1}`, limit, weight, cost, this.opts.windowMs * 2 + 5000).then(
      ([prev, cur, allowed]) => {
        if (this.failing) {
          this.failing = false;
          this.opts.log('Redis answers again: rate limits are shared and enforced again.');
        }
        return { prev: Number(prev), cur: Number(cur), allowed: allowed === 1 };
      },
      (err: Error) => {
        this.failed(err);
        this.opts.onFailOpen();
        return { prev: 0, cur: cost, allowed: true };
      },
    );
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }

  private failed(err: Error): void {
    this.failing = true;
    const now = Date.now();
    if (now - this.lastWarnAt < (this.opts.warnEveryMs ?? 60_000)) return;
    this.lastWarnAt = now;
    this.opts.log(`Redis is unreachable (${err.message}): rate limits are not enforced until it answers again (fail open).`);
  }
}
