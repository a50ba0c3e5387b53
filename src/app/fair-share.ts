import type { HolderOfAccount } from '../domain/api-key.js';

/**
 * A capacity (fetches at once, bytes waiting to be parsed, one parser thread) shared in turn by
 * accounts, and within an account by its holders: what one holder asks for waits behind at most
 * one turn of each other account that is waiting too, never behind all of one account's many
 * holders (an account of 1,000 holders gets one share, as one of a single holder does), nor
 * behind all of one holder's many requests. The next turn goes to the waiting account served
 * least recently, and in it to its waiting holder served least recently (one that was never
 * served, or not since it last had nothing in use, goes first), each holder's own requests in the
 * order they came. A request that does not fit yet holds the turn, so a large one is not passed
 * over for ever by small ones. Nothing is refused for waiting: the waiters are bounded by their
 * callers (a sync waits only while it holds its source's lease, so one per source at most).
 */
export class FairShare {
  private available: number;
  /** Holders with something waiting or in use. */
  private readonly holders = new Map<string, HolderShare>();
  /** Accounts with a holder in `holders`. */
  private readonly accounts = new Map<string, AccountShare>();
  /** Turns given so far: a holder's `servedAt` is the number of its last one. */
  private turns = 0;

  constructor(readonly capacity: number) {
    this.available = capacity;
  }

  /**
   * Waits until `units` are free and it is the owner's turn, takes them, and resolves with the
   * function that gives them back (once; later calls do nothing). Rejects with the signal's reason
   * when it is aborted while waiting, and at once when `units` exceed the whole capacity.
   */
  acquire(owner: HolderOfAccount, units: number, signal?: AbortSignal): Promise<() => void> {
    if (units > this.capacity)
      return Promise.reject(new RangeError(`${units} units exceed the capacity ${this.capacity}`));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const { holderId } = owner;
    let share = this.holders.get(holderId);
    if (!share) {
      let account = this.accounts.get(owner.accountId);
      if (!account) {
        account = { servedAt: 0, holders: 0 };
        this.accounts.set(owner.accountId, account);
      }
      account.holders++;
      share = { account, accountId: owner.accountId, waiting: [], inUse: 0, servedAt: 0 };
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
  async run<T>(owner: HolderOfAccount, units: number, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(owner, units, signal);
    try {
      return await work();
    } finally {
      release();
    }
  }

  /**
   * Grants waiters while the next fits, each turn to the waiting account served least recently
   * and in it to the waiting holder served least recently.
   */
  private serve(): void {
    for (;;) {
      let next: [string, HolderShare] | undefined;
      for (const entry of this.holders) {
        const [, share] = entry;
        if (share.waiting.length === 0) continue;
        if (
          next === undefined ||
          share.account.servedAt < next[1].account.servedAt ||
          (share.account === next[1].account && share.servedAt < next[1].servedAt)
        )
          next = entry;
      }
      if (next === undefined) return;
      const [holderId, holder] = next;
      const waiter = holder.waiting[0]!;
      if (waiter.units > this.available) return;
      holder.waiting.shift();
      holder.inUse += waiter.units;
      holder.servedAt = ++this.turns;
      holder.account.servedAt = holder.servedAt;
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
    if (holder.inUse > 0 || holder.waiting.length > 0) return;
    this.holders.delete(holderId);
    if (--holder.account.holders === 0) this.accounts.delete(holder.accountId);
  }
}

interface AccountShare {
  servedAt: number;
  /** Its holders in `holders`: the account is forgotten with the last. */
  holders: number;
}

interface HolderShare {
  account: AccountShare;
  accountId: string;
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
