/**
 * A capacity (fetches at once, bytes waiting to be parsed, one parser thread) shared by holders
 * in turn: what one holder asks for waits behind at most one turn of each other holder that is
 * waiting too, never behind all of one holder's many. The next turn goes to the waiting holder
 * served least recently (one that was never served, or not since it last had nothing in use, goes
 * first), each holder's own requests in the order they came. A request that does not fit yet
 * holds the turn, so a large one is not passed over for ever by small ones. Nothing is refused
 * for waiting: the waiters are bounded by their callers (a sync waits only while it holds its
 * source's lease, so one per source at most).
 */
export class FairShare {
  private available: number;
  /** Holders with something waiting or in use. */
  private readonly holders = new Map<string, HolderShare>();
  /** Turns given so far: a holder's `servedAt` is the number of its last one. */
  private turns = 0;

  constructor(readonly capacity: number) {
    this.available = capacity;
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
    let share = this.holders.get(holderId);
    if (!share) {
      share = { waiting: [], inUse: 0, servedAt: 0 };
      this.holders.set(holderId, share);
    }
    const holder = share;
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { units, resolve, abandon: () => undefined };
      if (signal) {
        const onAbort = () => {
          const at = holder.waiting.indexOf(waiter);
          if (at < 0) return;
          holder.waiting.splice(at, 1);
          this.forgetIfIdle(holderId, holder);
          reject(signal.reason);
          // The one that held the turn may have left: the next may fit.
          this.serve();
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.abandon = () => signal.removeEventListener('abort', onAbort);
      }
      holder.waiting.push(waiter);
      this.serve();
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

  /** Grants waiters, each turn to the waiting holder served least recently, while the next fits. */
  private serve(): void {
    for (;;) {
      let next: [string, HolderShare] | undefined;
      for (const entry of this.holders) {
        if (entry[1].waiting.length > 0 && (next === undefined || entry[1].servedAt < next[1].servedAt)) next = entry;
      }
      if (next === undefined) return;
      const [holderId, holder] = next;
      const waiter = holder.waiting[0]!;
      if (waiter.units > this.available) return;
      holder.waiting.shift();
      holder.inUse += waiter.units;
      holder.servedAt = ++this.turns;
      this.available -= waiter.units;
      waiter.abandon();
      waiter.resolve(this.releaser(holderId, holder, waiter.units));
    }
  }

  private releaser(holderId: string, holder: HolderShare, units: number): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      holder.inUse -= units;
      this.available += units;
      this.forgetIfIdle(holderId, holder);
      this.serve();
    };
  }

  private forgetIfIdle(holderId: string, holder: HolderShare): void {
    if (holder.inUse === 0 && holder.waiting.length === 0) this.holders.delete(holderId);
  }
}

interface HolderShare {
  waiting: Waiter[];
  inUse: number;
  servedAt: number;
}

interface Waiter {
  units: number;
  resolve: (release: () => void) => void;
  /** Stops listening for the caller's abort once served. */
  abandon: () => void;
}
