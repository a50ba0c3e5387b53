import type { ChangeSignal } from '../app/ports/change-signal.js';

/**
 * How a process hears of other processes' commits: whether it can tell now (`hearing`), having
 * passed on to `log` everything it has heard up to this moment.
 */
export interface CommitsElsewhere {
  hearing(log: ChangeLog): boolean;
  /** Resolves once every commit acknowledged before the call has been passed on to the log. */
  heardUpToNow(): Promise<void>;
}

/**
 * What a write transaction can change of what the caches keep: the ids of the holders whose keys
 * or calendar it may change (empty: none of it).
 */
export type Touched = readonly string[];

/** Holders tracked one by one; past this, one more change counts as a change to everything. */
const MAX_TRACKED_HOLDERS = 100_000;

/**
 * The commits this process knows of, as a sequence: its own, by the holders each says it touched
 * (`committedHere`; one that says nothing counts as a change to everything), and others' as the
 * engine tells them, by holder (PostgreSQL's change poll) or as a whole (SQLite `data_version`;
 * the change poll's first answer after it connects, or one with too many holders). A mark is the
 * sequence's value; something read after a mark is current while no change it concerns came after
 * that mark.
 */
export class ChangeLog implements ChangeSignal {
  private sequence = 0;
  private everythingChangedAt = 0;
  private readonly holderChangedAt = new Map<string, number>();

  constructor(private readonly elsewhere: CommitsElsewhere) {}

  mark(): number | null {
    return this.elsewhere.hearing(this) ? this.sequence : null;
  }

  /**
   * Resolves once every commit of any process acknowledged before the call is known here: what a
   * test waits for before asserting that a warm request reads nothing, instead of a guessed pause.
   */
  heardUpToNow(): Promise<void> {
    return this.elsewhere.heardUpToNow();
  }

  unchangedSince(mark: number, holderId: string): boolean {
    if (!this.elsewhere.hearing(this)) return false;
    return this.everythingChangedAt <= mark && (this.holderChangedAt.get(holderId) ?? 0) <= mark;
  }

  /**
   * A commit of this process: known as soon as the engine acknowledged it. `touched`: the only
   * holders whose keys or calendar it can have changed (none for a commit of what no cache
   * keeps: request counts, idempotency keys, webhook deliveries); without it, anything may have
   * changed.
   */
  committedHere(touched?: Touched): void {
    if (touched === undefined) this.everythingChanged();
    else for (const holderId of touched) this.holderChanged(holderId);
  }

  holderChanged(holderId: string): void {
    if (this.holderChangedAt.size >= MAX_TRACKED_HOLDERS && !this.holderChangedAt.has(holderId)) {
      this.everythingChanged();
      return;
    }
    this.holderChangedAt.set(holderId, ++this.sequence);
  }

  everythingChanged(): void {
    this.everythingChangedAt = ++this.sequence;
    this.holderChangedAt.clear();
  }
}

/**
 * SQLite: `data_version` changes when another connection commits. Read once per event-loop turn:
 * reading it takes SQLite's WAL read lock (two system calls), and under load a turn handles the
 * requests of many connections at once. A request read in the same turn as the first that asked
 * arrived before that read, so it was sent before any commit the read missed was acknowledged:
 * either order is a true one.
 */
export class DataVersionWatch implements CommitsElsewhere {
  private lastSeen: number | null = null;
  private readThisTurn = false;

  constructor(private readonly dataVersion: () => number) {}

  hearing(log: ChangeLog): boolean {
    if (this.readThisTurn) return true;
    this.readThisTurn = true;
    setImmediate(() => {
      this.readThisTurn = false;
    });
    const version = this.dataVersion();
    if (version !== this.lastSeen) {
      this.lastSeen = version;
      log.everythingChanged();
    }
    return true;
  }

  /** `data_version` is read when asked: nothing committed is ever still to be heard. */
  heardUpToNow(): Promise<void> {
    return Promise.resolve();
  }
}
