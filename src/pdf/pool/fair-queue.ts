// Waiting jobs, one FIFO per owner. The next job goes to the owner served least recently (an owner
// never served, or not for a long while, first), so an account with eight big uploads waiting gets
// every other turn, not the next eight: another account's one upload waits for at most one job per
// busy owner ahead of it.
export class FairQueue<T> {
  readonly #byOwner = new Map<string, T[]>();
  // When each owner was last served, on a counter; forgotten oldest first past MAX_REMEMBERED.
  readonly #servedAt = new Map<string, number>();
  #clock = 0;
  #size = 0;

  static readonly MAX_REMEMBERED = 10_000;

  get size(): number {
    return this.#size;
  }

  sizeOf(owner: string): number {
    return this.#byOwner.get(owner)?.length ?? 0;
  }

  push(owner: string, item: T): void {
    const list = this.#byOwner.get(owner);
    if (list) list.push(item);
    else this.#byOwner.set(owner, [item]);
    this.#size++;
  }

  /** The oldest item of the least recently served owner that `eligible` allows. */
  take(eligible: (owner: string) => boolean): T | undefined {
    let best: string | undefined;
    let bestAt = Infinity;
    for (const owner of this.#byOwner.keys()) {
      const at = this.#servedAt.get(owner) ?? 0;
      if (at < bestAt && eligible(owner)) {
        best = owner;
        bestAt = at;
      }
    }
    if (best === undefined) return undefined;
    const list = this.#byOwner.get(best)!;
    const item = list.shift()!;
    if (list.length === 0) this.#byOwner.delete(best);
    this.#size--;
    this.#servedAt.delete(best);
    this.#servedAt.set(best, ++this.#clock);
    if (this.#servedAt.size > FairQueue.MAX_REMEMBERED) this.#servedAt.delete(this.#servedAt.keys().next().value as string);
    return item;
  }

  /** Removes one item (a cancelled job); false when it was not waiting. */
  remove(owner: string, item: T): boolean {
    const list = this.#byOwner.get(owner);
    const at = list?.indexOf(item) ?? -1;
    if (!list || at < 0) return false;
    list.splice(at, 1);
    if (list.length === 0) this.#byOwner.delete(owner);
    this.#size--;
    return true;
  }

  drain(): T[] {
    const all = [...this.#byOwner.values()].flat();
    this.#byOwner.clear();
    this.#size = 0;
    return all;
  }
}
