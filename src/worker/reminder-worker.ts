import type { AppContext } from '../app/context.js';
import { sendDueReminders, type AlsoOnReminder } from '../app/reminders.js';
import type { WorkerLogger } from './delivery-worker.js';

export interface ReminderWorkerSettings {
  /** How often to look for due reminders. */
  intervalMs: number;
  /** Reminders per batch: each owner's of them in one short transaction. */
  batchSize: number;
  /** Batches per round at the most: a backlog (after downtime) is worked off over several rounds. */
  maxBatchesPerRound: number;
  /** What a reminder's transaction also writes (the reminder e-mail), from the composition root. */
  alsoOnReminder?: AlsoOnReminder;
}

/**
 * Sends reminders when due (contract §16): a round every `intervalMs` claims the due rows of the
 * store and writes each one's `booking.reminder` event to the outbox, which the delivery worker
 * sends. Nothing is kept in memory, so a restart loses nothing, and a reminder that fell due while
 * no instance ran is sent by the first round after. Safe with several instances: a row is claimed
 * in the transaction that removes it, and a row another instance holds is passed over.
 */
export class ReminderWorker {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<number> = Promise.resolve(0);

  constructor(
    private readonly context: AppContext,
    private readonly settings: ReminderWorkerSettings,
    private readonly logger: WorkerLogger,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.runRound(), this.settings.intervalMs);
    this.timer.unref();
  }

  /** Stops the rounds and waits for the one under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.round;
  }

  /** One round, after the one under way: batches until one comes back short; returns the reminders found due. */
  runRound(): Promise<number> {
    this.round = this.round.then(() => this.batches());
    return this.round;
  }

  private async batches(): Promise<number> {
    let found = 0;
    try {
      for (let batch = 0; batch < this.settings.maxBatchesPerRound; batch++) {
        const count = await sendDueReminders(this.context, {
          limit: this.settings.batchSize,
          alsoOnReminder: this.settings.alsoOnReminder,
          failed: (error, ownerId) =>
            this.logger.warn({ err: error, ownerId }, 'sending due reminders failed; the next round tries again'),
        });
        found += count;
        if (count < this.settings.batchSize) break;
        // Lets requests waiting on the event loop (and on SQLite, their write transactions) go first.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'looking for due reminders failed; the next round tries again');
    }
    return found;
  }
}
