import { Worker } from 'node:worker_threads';
import type { BookingEmailInput } from './booking-email.js';
import type { EmailDelivery, EmailDeliveryResult } from './email-delivery.js';
import type { EmailThreadAnswer, EmailThreadData, EmailThreadRequest } from './email-thread-main.js';

/** How long closing waits for the thread to end by itself. */
const CLOSE_GRACE_MS = 2_000;

/**
 * Composes and sends e-mails in one worker thread (email-thread-main.ts), so that neither the
 * composing nor the SMTP conversation takes the event loop's time: under a booking load, the
 * e-mail worker's sending would otherwise cost the booking path a share of its throughput. The
 * thread keeps the SMTP connections (`EmailSender`). A thread that ends (it fails, or runs out of
 * memory) answers every message in flight as not sent, to be retried on the schedule; the next
 * message starts a new thread.
 */
export class ThreadEmailDelivery implements EmailDelivery {
  private thread: Thread | undefined;
  private nextId = 0;

  constructor(private readonly data: EmailThreadData) {}

  deliver(input: BookingEmailInput): Promise<EmailDeliveryResult> {
    const thread = (this.thread ??= this.start());
    const id = ++this.nextId;
    return new Promise((resolve) => {
      thread.inFlight.set(id, resolve);
      thread.worker.postMessage({ type: 'deliver', id, input } satisfies EmailThreadRequest);
    });
  }

  /**
   * Ends the thread: its SMTP connections are closed (QUIT), then, if it has not ended within
   * `CLOSE_GRACE_MS` (a conversation still under way), it is terminated; a message it was sending
   * is answered as not sent.
   */
  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    if (!thread) return;
    const exited = new Promise((resolve) => thread.worker.once('exit', resolve));
    thread.worker.postMessage({ type: 'close' } satisfies EmailThreadRequest);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
    clearTimeout(timer);
    await thread.worker.terminate();
  }

  private start(): Thread {
    const worker = new Worker(new URL('./email-thread-main.js', import.meta.url), {
      workerData: this.data,
      // Modest: a message is a few kilobytes, and a handful are in flight.
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 },
    });
    const thread: Thread = { worker, inFlight: new Map() };
    worker.on('message', (answer: EmailThreadAnswer) => {
      const resolve = thread.inFlight.get(answer.id);
      thread.inFlight.delete(answer.id);
      resolve?.(answer.result);
    });
    const ended = (reason: string) => {
      if (this.thread === thread) this.thread = undefined;
      for (const resolve of thread.inFlight.values()) resolve({ kind: 'retry', error: `the e-mail thread ${reason}` });
      thread.inFlight.clear();
    };
    worker.once('error', (error) => ended(`failed: ${String(error)}`));
    worker.once('exit', (code) => ended(`ended (exit code ${code})`));
    // An idle thread does not keep the process alive.
    worker.unref();
    return thread;
  }
}

/** One thread, and the messages it was given and has not answered. */
interface Thread {
  worker: Worker;
  inFlight: Map<number, (result: EmailDeliveryResult) => void>;
}
