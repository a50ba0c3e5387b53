import type { Housekeeping } from '../app/ports/housekeeping.js';
import { DAY_MS, type Instant } from '../domain/instant.js';
import type { WorkerLogger } from './delivery-worker.js';

export interface HousekeeperSettings {
  /** How long finished deliveries (with their attempts and events) are kept. */
  retentionDays: number;
  /** How often to look for what is past keeping. */
  intervalMs: number;
  /** Rows of each kind per batch: one short transaction each. */
  batchSize: number;
  /** Batches per round at the most: a large backlog is worked off over several rounds. */
  maxBatchesPerRound: number;
}

/**
 * Removes what is past keeping, in small batches, a round every `intervalMs`. Safe with several
 * instances: a batch removes rows, so two instances at once only share the work.
 */
export class Housekeeper {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> = Promise.resolve();

  constructor(
    private readonly housekeeping: Housekeeping,
    private readonly settings: HousekeeperSettings,
    private readonly now: () => Instant,
    private readonly logger: WorkerLogger,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.round = this.round.then(async () => {
        await this.runRound();
      });
    }, this.settings.intervalMs);
    this.timer.unref();
  }

  /** Stops the rounds and waits for the one under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.round;
  }

  /** One round: batches until one comes back short, at most `maxBatchesPerRound`; returns the rows removed. */
  async runRound(): Promise<number> {
    let removed = 0;
    try {
      for (let batch = 0; batch < this.settings.maxBatchesPerRound; batch++) {
        const now = this.now();
        const count = await this.housekeeping.purge({
          finishedBefore: now - this.settings.retentionDays * DAY_MS,
          now,
          limit: this.settings.batchSize,
        });
        removed += count;
        if (count < this.settings.batchSize) break;
        // Lets requests waiting on the event loop (and on SQLite, their write transactions) go first.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'housekeeping round failed; the next round tries again');
    }
    return removed;
  }
}
