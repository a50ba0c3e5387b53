import { Worker } from 'node:worker_threads';
import type { BusyParser } from '../app/ports/busy-parser.js';
import type { BusyLimits, BusyParse, BusyWindow } from '../domain/busy-time.js';
import type { ParseRequest } from './busy-parser-thread.js';

export interface ThreadBusyParserOptions {
  /** The longest one parse may take; past it the thread is ended and the source fails. */
  timeoutMs: number;
  /** The thread's heap: a calendar that needs more fails instead of growing the process. */
  maxHeapMb: number;
}

/**
 * Parses calendars in one worker thread, one at a time, so that the process's event loop (its
 * requests) never waits for ical.js: a realistic 2,000-event calendar takes ~60 ms, a hostile one
 * up to its recurrence budget (~1 s). A parse past `timeoutMs`, or one that runs the thread out of
 * memory, ends the thread (the next parse starts a new one) and fails that source with a message.
 */
export class ThreadBusyParser implements BusyParser {
  private worker: Worker | undefined;
  private nextId = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ThreadBusyParserOptions) {}

  parse(texts: readonly string[], window: BusyWindow, defaultZone: string, limits: BusyLimits): Promise<BusyParse> {
    // One at a time: the thread is one core's worth of work, and a queue keeps the bound on memory.
    const result = this.queue.then(() =>
      this.run({ id: ++this.nextId, texts: [...texts], window, defaultZone, limits }),
    );
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Ends the thread (at shutdown). */
  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = undefined;
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
      this.worker = new Worker(new URL('./busy-parser-thread.js', import.meta.url), {
        resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb },
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
