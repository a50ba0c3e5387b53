import type { Instant } from '../domain/instant.js';
import { FairShare } from './fair-share.js';

/** How soon `POST /calendar-sources/:id/sync` may read the same source again (docs/api.md, "Limits"). */
export const MANUAL_SYNC_INTERVAL_MS = 30_000;
/** Sources whose last manual sync is remembered; past it the oldest are forgotten (which only lets them sync sooner). */
const MANUAL_SYNCS_KEPT = 10_000;

/**
 * What the syncs of one process share (issue 25, findings 3 and 9), built once by the composition
 * root: a sync takes a turn among `fetches` to read its source, then room in `parseRoom` for what
 * it read (before it gives its fetch turn back, so text read and not yet counted is bounded by
 * the fetches at once), which it keeps until the parse is done. Both are shared by holders in turn.
 * And `POST …/sync` of one source: a call while a sync of it runs in this process (the worker's or
 * another call's) joins that one, and otherwise reads it at most once per MANUAL_SYNC_INTERVAL_MS,
 * counted in this process.
 */
export class SyncLimits {
  readonly fetches: FairShare;
  readonly parseRoom: FairShare;
  /** The syncs running in this process, by source: at most one a source (each holds its lease). */
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** Per source, when its last manual sync started, oldest first. */
  private readonly manualStarted = new Map<string, Instant>();

  constructor(
    settings: { syncConcurrency: number; parseQueueBytes: number },
    private readonly now: () => Instant,
  ) {
    this.fetches = new FairShare(settings.syncConcurrency);
    this.parseRoom = new FairShare(settings.parseQueueBytes);
  }

  /** Registers the worker's sync of `sourceId`, for `manual` to join, until it settles. */
  track(sourceId: string, sync: Promise<unknown>): void {
    const settled = sync.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.set(sourceId, settled);
    void settled.then(() => {
      if (this.inFlight.get(sourceId) === settled) this.inFlight.delete(sourceId);
    });
  }

  /**
   * Runs `sync` as the manual sync of `sourceId`, or joins the sync of it in flight in this process;
   * or, when a manual one started less than MANUAL_SYNC_INTERVAL_MS ago, runs nothing and answers
   * how many seconds to wait.
   */
  async manual(sourceId: string, sync: () => Promise<void>): Promise<{ retryAfterSeconds: number } | undefined> {
    const running = this.inFlight.get(sourceId);
    if (running) {
      await running;
      return undefined;
    }
    const now = this.now();
    const last = this.manualStarted.get(sourceId);
    if (last !== undefined && now - last < MANUAL_SYNC_INTERVAL_MS)
      return { retryAfterSeconds: Math.max(1, Math.ceil((last + MANUAL_SYNC_INTERVAL_MS - now) / 1000)) };
    this.remember(sourceId, now);
    const started = sync();
    this.track(sourceId, started);
    await started;
    return undefined;
  }

  private remember(sourceId: string, now: Instant): void {
    this.manualStarted.delete(sourceId);
    for (const [id, at] of this.manualStarted) {
      if (now - at < MANUAL_SYNC_INTERVAL_MS && this.manualStarted.size < MANUAL_SYNCS_KEPT) break;
      this.manualStarted.delete(id);
    }
    this.manualStarted.set(sourceId, now);
  }
}
