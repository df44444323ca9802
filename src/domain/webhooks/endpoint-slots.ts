/**
 * Per-endpoint concurrency within one worker process: at most `cap` attempts to one webhook at once,
 * so one slow receiver holds at most that many of the worker's job slots and the others keep flowing.
 * An attempt that finds its endpoint full waits briefly (a fast receiver frees a slot within
 * milliseconds); past that it is deferred (deliver-webhook.ts) and its job slot goes to other work.
 */
export class EndpointSlots {
  private readonly running = new Map<string, number>();
  private readonly waiters = new Map<string, Array<() => void>>();

  constructor(private readonly cap: number) {}

  /** True when a slot was taken (call `release` after); false when none freed within `waitMs`. */
  async acquire(key: string, waitMs: number): Promise<boolean> {
    if (this.tryTake(key)) return true;
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      const freed = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          this.dropWaiter(key, wake);
          resolve(false);
        }, deadline - Date.now());
        const wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
        this.waiters.set(key, [...(this.waiters.get(key) ?? []), wake]);
      });
      if (freed && this.tryTake(key)) return true;
    }
    return false;
  }

  release(key: string): void {
    const n = (this.running.get(key) ?? 1) - 1;
    if (n <= 0) this.running.delete(key);
    else this.running.set(key, n);
    const queue = this.waiters.get(key);
    const next = queue?.shift();
    if (queue && queue.length === 0) this.waiters.delete(key);
    next?.();
  }

  private tryTake(key: string): boolean {
    const n = this.running.get(key) ?? 0;
    if (n >= this.cap) return false;
    this.running.set(key, n + 1);
    return true;
  }

  private dropWaiter(key: string, w: () => void): void {
    const queue = this.waiters.get(key)?.filter((x) => x !== w) ?? [];
    if (queue.length === 0) this.waiters.delete(key);
    else this.waiters.set(key, queue);
  }
}
