/** The answer one request of a batch gets: its own result or its own error. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

interface Waiting<In, Out> {
  input: In;
  resolve: (value: Out) => void;
  reject: (error: unknown) => void;
}

/**
 * Bookings of one start of one holder's event type, decided together (contract §15's seats, which
 * 16 guests of a workshop ask for at once). A request that finds none of its key being decided
 * is decided at once, alone; those that arrive meanwhile wait for it to commit and are then
 * decided together, in the order they arrived, in one transaction (`takeTimeForEach`). On
 * PostgreSQL each decision costs round trips and a commit whatever it writes, and the seats of
 * one occurrence lock the same holder row at commit: together they share one of each, which
 * doubled the seats' rate there (docs/performance.md, "Issue 29, session 20").
 *
 * Only this process's requests are batched; other processes' decisions meet them in the
 * database as before. One per process, built by the composition root. The waiting are bounded
 * by the requests the server accepts at once (its connection limits); a batch takes at most
 * `maxPerBatch` of them.
 */
export class BookingBatches {
  /** The requests of each key being decided that wait for the next batch. */
  private readonly queues = new Map<string, Array<Waiting<unknown, unknown>>>();

  constructor(private readonly maxPerBatch: number) {}

  /**
   * Decides `input` with the others of `key` waiting when its turn comes: `decide` is given them
   * all, in order, and settles each; it is the same for every request of a key.
   */
  decide<In, Out>(key: string, input: In, decide: (inputs: In[]) => Promise<Array<Settled<Out>>>): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      const entry = { input, resolve, reject } as Waiting<unknown, unknown>;
      const queue = this.queues.get(key);
      if (queue) {
        queue.push(entry);
        return;
      }
      const started = [entry];
      this.queues.set(key, started);
      void this.drain(key, started, decide as (inputs: unknown[]) => Promise<Array<Settled<unknown>>>);
    });
  }

  private async drain(
    key: string,
    waiting: Array<Waiting<unknown, unknown>>,
    decide: (inputs: unknown[]) => Promise<Array<Settled<unknown>>>,
  ): Promise<void> {
    try {
      while (waiting.length > 0) {
        const batch = waiting.splice(0, this.maxPerBatch);
        let settled: Array<Settled<unknown>>;
        try {
          settled = await decide(batch.map((entry) => entry.input));
        } catch (error) {
          settled = batch.map(() => ({ ok: false, error }));
        }
        batch.forEach((entry, index) => {
          const outcome = settled[index]!;
          if (outcome.ok) entry.resolve(outcome.value);
          else entry.reject(outcome.error);
        });
      }
    } finally {
      this.queues.delete(key);
    }
  }
}
