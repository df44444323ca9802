import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A value carried through the async calls of a `run`, as AsyncLocalStorage does, but switched on only
 * while some `run` is in progress. On Node 20, AsyncLocalStorage turns on async hooks for every
 * promise and native callback of the whole process from its first `run` until it is disabled:
 * measured on a read request (`GET /api/v1/templates` under load) that was 8–13 % of its CPU time,
 * paid by requests that never enter a unit of work. Units of work are the only users here, so the
 * storage is disabled whenever no unit runs, and reads between writes pay nothing.
 *
 * `get` answers for code called (synchronously or through awaits) from inside a `run` that has not
 * yet settled. Work a run started without awaiting it and that outlives the run may see the value
 * only while another run is in progress (Node keeps the value on async resources made while the
 * storage was on); the unit-of-work guard does not need it there, since such work never holds up the
 * unit's batch. Node 24 carries the context without async hooks, so there disabling saves nothing
 * and costs nothing.
 */
export class ScopedContext<T> {
  private readonly storage = new AsyncLocalStorage<T>();
  private running = 0;

  get(): T | undefined {
    return this.running > 0 ? this.storage.getStore() : undefined;
  }

  run<R>(value: T, fn: () => Promise<R>): Promise<R> {
    this.running++;
    let result: Promise<R>;
    try {
      result = this.storage.run(value, fn);
    } catch (error) {
      this.leave();
      throw error;
    }
    return result.finally(() => this.leave());
  }

  private leave(): void {
    // Disabling drops the async hooks once no storage of the process is in use (Node's own rule).
    if (--this.running === 0) this.storage.disable();
  }
}
