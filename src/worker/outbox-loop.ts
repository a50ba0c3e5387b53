export interface WorkerLogger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** What one outbox loop does with its jobs: the webhook deliveries, or the e-mails. */
export interface OutboxWork<Job> {
  /** What the log calls the loop's work, e.g. `webhook deliveries`. */
  readonly name: string;
  /**
   * Claims up to `free` due jobs in a short transaction: those to run now, and how many it claimed
   * (it may have handed back some that its own limits keep from running). A claim of `free` jobs
   * says more may be due: the loop claims again at once.
   */
  claim(free: number): Promise<{ run: Job[]; claimed: number }>;
  idOf(job: Job): string;
  /** Runs one job with no transaction open, and records how it went; `signal` aborts it at shutdown. */
  attempt(job: Job, signal: AbortSignal): Promise<void>;
  /** After `attempt` settled, however it did. */
  finished?(job: Job): void;
}

export interface OutboxLoopSettings {
  /** Jobs in flight at once. */
  concurrency: number;
  /** How often to look for due jobs when nothing wakes the loop. */
  pollIntervalMs: number;
  /**
   * How long a wake waits before it claims, so that the wakes of many commits (and finished jobs)
   * in that time share one claim; 0: claim at once. A claim is a write transaction, which on
   * SQLite waits its turn with the bookings'.
   */
  wakeDelayMs?: number;
}

/**
 * The outbox loop: claim due jobs in a short transaction, run each with no transaction open (the
 * work records the outcome), claim again as soon as a job finishes or a commit wakes the loop,
 * else every `pollIntervalMs`. Runs inside the server process.
 */
export class OutboxLoop<Job> {
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | undefined;
  /** The tick running or last run: stop() waits for a claim under way. */
  private tickDone: Promise<void> = Promise.resolve();
  private ticking = false;
  private wakeRequested = false;
  /** A claim is due within `wakeDelayMs`: further wakes until then join it. */
  private wakeScheduled = false;
  private stopped = true;

  constructor(
    private readonly work: OutboxWork<Job>,
    private readonly settings: OutboxLoopSettings,
    private readonly logger: WorkerLogger,
  ) {}

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Look for due work now (after a commit that enqueued some). */
  wake(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.wakeRequested = true;
      return;
    }
    if (this.wakeScheduled) return;
    this.schedule(this.settings.wakeDelayMs ?? 0);
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.wakeScheduled = delayMs < this.settings.pollIntervalMs;
    this.timer = setTimeout(() => this.runTick(), delayMs);
  }

  /**
   * Stops claiming, lets jobs in flight finish for up to `graceMs`, then aborts the rest (the work
   * hands their rows back, so the next start runs them without waiting for the lease).
   */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    // The cleared timer was perhaps a wake's: else the next start()'s wake would wait for it forever.
    this.wakeScheduled = false;
    // A claim under way finishes first: what it claimed is then in flight, so it is waited for or
    // aborted below instead of being run after shutdown.
    await this.tickDone;
    const pending = [...this.inFlight.values()].map((job) => job.done);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(pending), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    const unfinished = [...this.inFlight.values()];
    for (const job of unfinished) job.abort.abort();
    await Promise.all(unfinished.map((job) => job.done));
  }

  private runTick(): void {
    this.tickDone = this.tick();
  }

  private async tick(): Promise<void> {
    this.wakeScheduled = false;
    if (this.stopped) return;
    this.ticking = true;
    let claimedAll = false;
    try {
      const free = this.settings.concurrency - this.inFlight.size;
      if (free > 0) {
        const { run, claimed } = await this.work.claim(free);
        for (const job of run) this.launch(job);
        claimedAll = claimed === free;
      }
    } catch (error) {
      this.logger.error({ err: error }, `${this.work.name}: could not claim due work`);
    } finally {
      this.ticking = false;
    }
    if (this.stopped) return;
    const again = this.wakeRequested || claimedAll;
    this.wakeRequested = false;
    this.schedule(again ? (this.settings.wakeDelayMs ?? 0) : this.settings.pollIntervalMs);
  }

  private launch(job: Job): void {
    const id = this.work.idOf(job);
    const abort = new AbortController();
    const done = this.work
      .attempt(job, abort.signal)
      .catch((error: unknown) =>
        this.logger.error({ err: error, job: id }, `${this.work.name}: attempt failed to record`),
      )
      .finally(() => {
        this.inFlight.delete(id);
        this.work.finished?.(job);
        this.wake();
      });
    this.inFlight.set(id, { abort, done });
  }
}

/**
 * A work that runs its own outbox loop: `start`, `wake` (after a commit that wrote some of its
 * jobs) and `stop` (stops claiming; jobs in flight get `graceMs`, then their `signal` aborts)
 * are the loop's.
 */
export abstract class OutboxWorker<Job> implements OutboxWork<Job> {
  abstract readonly name: string;
  private readonly loop: OutboxLoop<Job>;

  constructor(settings: OutboxLoopSettings, logger: WorkerLogger) {
    this.loop = new OutboxLoop(this, settings, logger);
  }

  start(): void {
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  stop(graceMs: number): Promise<void> {
    return this.loop.stop(graceMs);
  }

  abstract claim(free: number): Promise<{ run: Job[]; claimed: number }>;
  abstract idOf(job: Job): string;
  abstract attempt(job: Job, signal: AbortSignal): Promise<void>;
}
