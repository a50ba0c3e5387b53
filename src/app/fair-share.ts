/**
 * A capacity (syncs running at once, bytes waiting to be parsed, one parser thread) shared by
 * holders in turn: what one holder asks for waits behind the others' that are already waiting
 * only once per round, never behind all of one holder's many. Waiters are served round-robin by
 * holder (each holder's own in the order they came); a waiter that does not fit yet holds the
 * turn, so a large request is not passed over for ever by small ones. Nothing is refused for
 * waiting: the waiters are bounded by their callers (a sync waits only while it holds its
 * source's lease, so one per source at most).
 */
export class FairShare {
  private available: number;
  /** Per holder, its waiters in order; the map's order is the turn (a served holder goes last). */
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(readonly capacity: number) {
    this.available = capacity;
  }

  /** Units in use now. */
  get inUse(): number {
    return this.capacity - this.available;
  }

  /**
   * Waits until `units` are free and it is `holderId`'s turn, takes them, and resolves with the
   * function that gives them back (once; later calls do nothing). Rejects with the signal's reason
   * when it is aborted while waiting, and at once when `units` exceed the whole capacity.
   */
  acquire(holderId: string, units: number, signal?: AbortSignal): Promise<() => void> {
    if (units > this.capacity)
      return Promise.reject(new RangeError(`${units} units exceed the capacity ${this.capacity}`));
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.waiting.size === 0 && units <= this.available) {
      this.available -= units;
      return Promise.resolve(this.releaser(units));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { units, resolve, abandon: () => undefined };
      if (signal) {
        const onAbort = () => {
          this.remove(holderId, waiter);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.abandon = () => signal.removeEventListener('abort', onAbort);
      }
      const queue = this.waiting.get(holderId);
      if (queue) queue.push(waiter);
      else this.waiting.set(holderId, [waiter]);
    });
  }

  /** Runs `work` with `units` taken (see `acquire`), and gives them back when it settles. */
  async run<T>(holderId: string, units: number, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(holderId, units, signal);
    try {
      return await work();
    } finally {
      release();
    }
  }

  private releaser(units: number): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.available += units;
      this.serve();
    };
  }

  /** Grants waiters in turn while the one whose turn it is fits. */
  private serve(): void {
    for (const [holderId, queue] of this.waiting) {
      const next = queue[0]!;
      if (next.units > this.available) return;
      queue.shift();
      // Served: to the end of the turn, or out of it with nothing left waiting.
      this.waiting.delete(holderId);
      if (queue.length > 0) this.waiting.set(holderId, queue);
      this.available -= next.units;
      next.abandon();
      next.resolve(this.releaser(next.units));
    }
  }

  private remove(holderId: string, waiter: Waiter): void {
    const queue = this.waiting.get(holderId);
    const at = queue?.indexOf(waiter) ?? -1;
    if (at < 0) return;
    queue!.splice(at, 1);
    if (queue!.length === 0) this.waiting.delete(holderId);
    // The one that held the turn may have left: the next may fit.
    this.serve();
  }
}

interface Waiter {
  units: number;
  resolve: (release: () => void) => void;
  /** Stops listening for the caller's abort once served. */
  abandon: () => void;
}
