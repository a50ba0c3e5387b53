import { Worker } from 'node:worker_threads';
import { FairShare } from '../app/fair-share.js';
import type { BusyParser } from '../app/ports/busy-parser.js';
import type { BusyLimits, BusyParse } from '../domain/busy-time.js';
import type { HolderOfAccount } from '../domain/api-key.js';
import type { Interval } from '../domain/intervals.js';
import type { ParseRequest } from './busy-parser-worker-main.js';

export interface ThreadBusyParserOptions {
  /** The longest one parse may take; past it the thread is ended and the source fails. */
  timeoutMs: number;
  /** The thread's heap: a calendar that needs more fails instead of growing the process. */
  maxHeapMb: number;
  /**
   * How long the thread is kept with nothing to parse. A thread that has parsed holds 30–45 MB
   * (its own heap, ical.js and what the parse left), which the process's peak RSS would carry for
   * good; syncs that find nothing new (304, the usual case) parse nothing (`npm run bench`, busy).
   */
  idleMs: number;
}

/**
 * Parses calendars in one worker thread, one at a time, so that the process's event loop (its
 * requests) never waits for ical.js: a realistic 2,000-event calendar takes ~60 ms, a hostile one
 * up to its recurrence budget (~1 s). A parse past `timeoutMs`, or one that runs the thread out of
 * memory, ends the thread (the next parse starts a new one) and fails that source with a message.
 * The parses waiting for the thread take turns by holder (FairShare): a holder's parse waits for
 * at most one of each other holder's, however many that holder has queued (issue 25). What waits
 * is bounded by the sync's room for parsing (SyncLimits.parseRoom), taken before it asks.
 */
export class ThreadBusyParser implements BusyParser {
  private worker: Worker | undefined;
  private nextId = 0;
  /** The thread, taken by one parse at a time, holders in turn. */
  private readonly turns = new FairShare(1);
  /** Parses asked for and not yet answered; the idle timer runs only at zero. */
  private pending = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ThreadBusyParserOptions) {}

  async parse(
    owner: HolderOfAccount,
    texts: readonly string[],
    window: Interval,
    defaultZone: string,
    limits: BusyLimits,
  ): Promise<BusyParse> {
    this.pending++;
    clearTimeout(this.idleTimer);
    try {
      // One at a time: the thread is one core's worth of work.
      return await this.turns.run(owner, 1, () =>
        this.run({ id: ++this.nextId, texts: [...texts], window, defaultZone, limits }),
      );
    } finally {
      if (--this.pending === 0) this.idleTimer = setTimeout(() => this.endIdle(), this.options.idleMs).unref();
    }
  }

  /** Ends the thread (at shutdown). */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    await this.worker?.terminate();
    this.worker = undefined;
  }

  /** The thread had nothing to parse for `idleMs`: ended, to give its memory back; the next parse starts a new one. */
  private endIdle(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }

  private run(request: ParseRequest): Promise<BusyParse> {
    const worker = this.thread();
    return new Promise<BusyParse>((resolve) => {
      const finish = (result: BusyParse) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onFailure);
        worker.off('exit', onFailure);
        resolve(result);
      };
      const onMessage = (message: { id: number; result: BusyParse }) => {
        if (message.id === request.id) finish(message.result);
      };
      const onFailure = () => {
        this.discard(worker);
        finish({ ok: false, error: 'the calendar could not be read within the memory allowed for one calendar' });
      };
      const timer = setTimeout(() => {
        this.discard(worker);
        void worker.terminate();
        finish({
          ok: false,
          error: `the calendar took longer than ${this.options.timeoutMs / 1000} s to read`,
        });
      }, this.options.timeoutMs);
      worker.on('message', onMessage);
      worker.once('error', onFailure);
      worker.once('exit', onFailure);
      worker.postMessage(request);
    });
  }

  private thread(): Worker {
    if (!this.worker) {
      this.worker = new Worker(new URL('./busy-parser-worker-main.js', import.meta.url), {
        // The young generation capped too (V8's default grows it to 48 MB): parsing the bench's
        // calendars peaks 6 MB lower with 8, no slower.
        resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb, maxYoungGenerationSizeMb: 8 },
      });
      // An idle thread does not keep the process alive.
      this.worker.unref();
    }
    return this.worker;
  }

  private discard(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
  }
}
