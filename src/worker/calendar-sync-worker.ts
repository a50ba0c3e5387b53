import { syncSource, type SyncReport } from '../app/calendar-sync.js';
import type { AppContext } from '../app/context.js';
import type { WorkerLogger } from './delivery-worker.js';

/** Where the sync worker says what it did: every sync is a line (a source's id and outcome, never its address). */
export interface SyncLogger extends WorkerLogger {
  info(object: object, message: string): void;
  debug(object: object, message: string): void;
}

export interface CalendarSyncSettings {
  /** How often to look for sources that are due. */
  pollIntervalMs: number;
  /** Sources synced at once by this process: each holds a connection and a parse. */
  concurrency: number;
  /** How long a lease lasts: longer than the longest sync, so no other instance takes a source mid-sync. */
  leaseMs: number;
}

/**
 * Syncs each calendar source when it is due (contract §11), in the same process as the delivery
 * worker. Safe with several instances: a source is leased before it is read (`SyncLeases`), so one
 * instance at a time syncs it, and a crashed instance's leases lapse. A sync is bounded by the
 * fetcher's timeout and size cap and the engine's limits: a huge, slow or malformed calendar sets
 * its source to `error` and blocks nothing else.
 */
export class CalendarSyncWorker {
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private polling: Promise<void> | undefined;
  private stopping = false;
  private readonly abort = new AbortController();

  constructor(
    private readonly context: AppContext,
    private readonly settings: CalendarSyncSettings,
    private readonly logger: SyncLogger,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), this.settings.pollIntervalMs);
    this.timer.unref();
    this.wake();
  }

  /** Looks for due sources now (a source was just added or readdressed). */
  wake(): void {
    if (this.stopping || this.timer === undefined || this.polling) return;
    this.polling = this.poll().finally(() => {
      this.polling = undefined;
    });
  }

  /** One round: leases as many due sources as there is room for and starts their syncs; resolves once they are started. */
  async poll(): Promise<void> {
    const room = this.settings.concurrency - this.inFlight.size;
    if (room <= 0) return;
    try {
      const now = this.context.now();
      // A lease is nothing the caches keep (keys, holders, calendars): the round says it changed
      // none of it, or this poll, once a second, would make the process read every key and
      // holder in use again, and hide a lost change signal (a revocation) behind that re-read.
      const due = await this.context.store.transaction(
        (tx) => tx.calendarSources.claimDue(now, now + this.settings.leaseMs, room),
        { ownerIds: [] },
      );
      for (const { id, holderId } of due) {
        const sync: Promise<void> = this.syncOne(holderId, id).finally(() => this.inFlight.delete(sync));
        this.inFlight.add(sync);
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'calendar sync round failed; the next round tries again');
    }
  }

  /** Every sync in flight, for tests: resolves when they are done. */
  async idle(): Promise<void> {
    await this.polling;
    await Promise.all([...this.inFlight]);
  }

  /** Stops polling and waits for the syncs in flight, at most `graceMs` (then aborts them). */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    const cut = setTimeout(() => this.abort.abort(), graceMs);
    await this.idle();
    clearTimeout(cut);
  }

  private async syncOne(holderId: string, id: string): Promise<void> {
    let report: SyncReport | undefined;
    try {
      const sync = syncSource(this.context, holderId, id, this.abort.signal);
      // `POST …/sync` of the source meanwhile joins this sync rather than reading it again.
      this.context.syncLimits.track(id, sync);
      report = await sync;
    } catch (error) {
      this.logger.warn({ err: error, sourceId: id }, 'calendar sync failed; it is tried again at its next turn');
      return;
    }
    // The source's id and what happened: never its address. A read that found nothing new is the
    // common case, every interval for every source: only at debug.
    if (report.outcome === 'failed') this.logger.warn(report, 'calendar source failed');
    else if (report.outcome === 'changed') this.logger.info(report, 'calendar source synced');
    else this.logger.debug(report, 'calendar source synced');
  }
}
