import pg from 'pg';
import type { ChangeLog, CommitsElsewhere } from './change-log.js';

export interface ChangePollTiming {
  /** The pause between two questions. */
  intervalMs: number;
  /**
   * How long after a question was asked its answer may still be relied on: past this with no
   * newer answer (the database slow or unreachable, the connection silently gone), nothing is
   * reused. Also each question's own time limit.
   */
  trustMs: number;
  /** The first wait before reconnecting; doubled after each failure up to `maxReconnectMs`. */
  reconnectMs: number;
  maxReconnectMs: number;
}

/**
 * `trustMs` bounds how long this process can serve a key another process revoked, or a calendar
 * another process changed (issue 16: a revoked key is refused everywhere within a second).
 */
export const DEFAULT_CHANGE_POLL_TIMING: ChangePollTiming = {
  intervalMs: 100,
  trustMs: 500,
  reconnectMs: 100,
  maxReconnectMs: 5_000,
};

/** Rows re-read per question, at most: past this, everything counts as changed. */
const MAX_CHANGED_HOLDERS = 1_000;

/**
 * PostgreSQL: asks the database, on a connection of its own, a few times a second, which holders
 * were changed by transactions that committed since it last asked (migration 0009 leaves the
 * changing transaction's id on the holder's row). One statement reads the changed rows and its
 * own snapshot's `xmin`: every transaction older than that had ended when the rows were read, so
 * the next question asks from there, and a transaction still running then is asked about again
 * until it has ended, whatever order transactions commit in. Rows asked about again unchanged
 * (same transaction id) are no news.
 *
 * While an answer is fresh (asked within `trustMs`), what was read may be reused until a change
 * concerns it; otherwise (before the first answer, the connection lost, the database slow) the
 * process hears nothing and every read goes to the database. Reconnected, everything read before
 * counts as changed.
 *
 * Started by the first question about changes, so that a process that never reuses reads (the
 * CLI) never opens it.
 */
export class PostgresChangePoll implements CommitsElsewhere {
  private log: ChangeLog | null = null;
  private client: pg.Client | null = null;
  private started = false;
  private closed = false;
  /** `xmin` of the last answer's snapshot, as text (xid8); null until the first answer of a connection. */
  private horizon: string | null = null;
  /** Holders in the last answer, by the transaction that last changed them. */
  private readonly lastSeen = new Map<string, bigint>();
  /** When the last answered question was asked (performance.now()); -Infinity when none may be relied on. */
  private answeredQuestionAskedAt = -Infinity;
  private pause: NodeJS.Timeout | null = null;
  private wake: (() => void) | null = null;
  /** Callers of `heardUpToNow`, each with when it called (performance.now()). */
  private waiters: Array<{ calledAt: number; resolve: () => void }> = [];

  constructor(
    private readonly connectionString: string,
    private readonly timing: ChangePollTiming = DEFAULT_CHANGE_POLL_TIMING,
  ) {}

  hearing(log: ChangeLog): boolean {
    if (!this.started) {
      this.started = true;
      this.log = log;
      void this.run();
    }
    return performance.now() - this.answeredQuestionAskedAt < this.timing.trustMs;
  }

  /**
   * Resolves once a question asked after the call has been answered: its snapshot holds every
   * transaction acknowledged before the call. The next question is asked at once. With no poll
   * running (never started, or closed), nothing is reused, so there is nothing to wait for.
   */
  heardUpToNow(): Promise<void> {
    if (!this.started || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push({ calledAt: performance.now(), resolve });
      this.wake?.();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.answeredQuestionAskedAt = -Infinity;
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
    if (this.pause) clearTimeout(this.pause);
    this.wake?.();
    await this.client?.end().catch(() => {});
  }

  private async run(): Promise<void> {
    let reconnectMs = this.timing.reconnectMs;
    while (!this.closed) {
      try {
        await this.connect();
        reconnectMs = this.timing.reconnectMs;
        while (!this.closed) {
          await this.ask();
          await this.sleep(this.timing.intervalMs);
        }
      } catch {
        this.answeredQuestionAskedAt = -Infinity;
        const client = this.client;
        this.client = null;
        await client?.end().catch(() => {});
        await this.sleep(reconnectMs);
        reconnectMs = Math.min(reconnectMs * 2, this.timing.maxReconnectMs);
      }
    }
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: 'slotwise-change-poll',
      keepAlive: true,
      connectionTimeoutMillis: this.timing.trustMs,
      statement_timeout: this.timing.trustMs,
      query_timeout: this.timing.trustMs,
    });
    // A lost connection fails the next question; the loop reconnects.
    client.on('error', () => {});
    this.client = client;
    await client.connect();
    // The first question on a connection counts everything as changed, and forgets what was seen.
    this.horizon = null;
  }

  private async ask(): Promise<void> {
    const askedAt = performance.now();
    const { rows } = await this.client!.query<{ horizon: string; changed: Array<[string, string]> | null }>(
      this.horizon === null ? FIRST_QUESTION : QUESTION,
      this.horizon === null ? [] : [this.horizon, MAX_CHANGED_HOLDERS + 1],
    );
    const { horizon, changed } = rows[0]!;
    const log = this.log!;
    if (this.horizon === null || (changed?.length ?? 0) > MAX_CHANGED_HOLDERS) {
      // A first answer after (re)connecting: whatever happened before is unknown.
      log.everythingChanged();
      this.lastSeen.clear();
    } else {
      for (const [holderId, changedBy] of changed ?? []) {
        const transaction = BigInt(changedBy);
        if (this.lastSeen.get(holderId) === transaction) continue;
        this.lastSeen.set(holderId, transaction);
        log.holderChanged(holderId);
      }
    }
    const floor = BigInt(horizon);
    for (const [holderId, transaction] of this.lastSeen) if (transaction < floor) this.lastSeen.delete(holderId);
    this.horizon = horizon;
    this.answeredQuestionAskedAt = askedAt;
    const waiting = this.waiters;
    this.waiters = waiting.filter((waiter) => waiter.calledAt >= askedAt);
    for (const waiter of waiting) if (waiter.calledAt < askedAt) waiter.resolve();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.pause = setTimeout(resolve, ms);
      this.pause.unref();
    });
  }
}

const FIRST_QUESTION = `select pg_snapshot_xmin(pg_current_snapshot())::text as horizon, null as changed`;
// One statement: the rows and the horizon come from the same snapshot. Holders and accounts (an
// account key's revocation marks its account: migration 0011) share one id space and one log.
const QUESTION = `
  select pg_snapshot_xmin(pg_current_snapshot())::text as horizon,
         (select json_agg(json_build_array(id, changed_by::text))
            from (select id, changed_by from holders where changed_by >= $1::xid8
                  union all
                  select id, changed_by from accounts where changed_by >= $1::xid8
                  limit $2) as recent) as changed`;
