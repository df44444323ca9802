import { previousWeight, windowIndex, type WindowCounts, type WindowStore } from './sliding-window.js';

interface Entry {
  index: number;
  prev: number;
  cur: number;
}

/**
 * The in-process window store (no REDIS_URL): synchronous, so a request pays no promise for it.
 * Entries older than the previous window are dropped once per window, which bounds the map by the
 * (account, endpoint) pairs active in the last two minutes.
 */
export class MemoryWindowStore implements WindowStore {
  private readonly entries = new Map<string, Entry>();
  private sweptAt = -1;

  constructor(private readonly windowMs: number) {}

  hit(key: string, limit: number, cost: number, nowMs: number): WindowCounts {
    const index = windowIndex(nowMs, this.windowMs);
    if (index !== this.sweptAt) this.sweep(index);
    let e = this.entries.get(key);
    if (!e) {
      e = { index, prev: 0, cur: 0 };
      this.entries.set(key, e);
    } else if (e.index !== index) {
      e.prev = e.index === index - 1 ? e.cur : 0;
      e.cur = 0;
      e.index = index;
    }
    const allowed = cost > 0 && e.prev * previousWeight(nowMs, this.windowMs) + e.cur + cost <= limit;
    if (allowed) e.cur += cost;
    return { prev: e.prev, cur: e.cur, allowed };
  }

  get size(): number {
    return this.entries.size;
  }

  async close(): Promise<void> {
    this.entries.clear();
  }

  private sweep(index: number): void {
    this.sweptAt = index;
    for (const [key, e] of this.entries) if (e.index < index - 1) this.entries.delete(key);
  }
}
