import type { ChangeSignal } from './ports/change-signal.js';

/**
 * Records read from the store, reused while nothing that concerns their owner (a holder or an
 * account) was committed since they were read, by any process (see `ChangeSignal`); the mark is
 * taken before the read, so a record read meanwhile is at least as new as its label. When the
 * process cannot hear other processes' commits (PostgreSQL's change poll unanswered), every
 * request reads.
 *
 * Kept by measurement (docs/performance.md, "Hand-written parts"): a known record is answered
 * without a promise, so the auth hook of a warm request waits on nothing.
 */
export class FreshCache<V> {
  private readonly known = new Map<string, { mark: number; value: V }>();
  /**
   * Reads in flight, by key, with the mark taken before each: a request that finds the same mark
   * (nothing changed since that read began) waits for it rather than reading again. After a
   * commit, every request in flight would otherwise read at once (measured: 63 statements a
   * booking with 64 connections reading one key).
   */
  private readonly reading = new Map<string, { mark: number; value: Promise<V | undefined> }>();

  constructor(
    private readonly read: (key: string) => Promise<V | undefined>,
    /** Whose changes make the record stale. */
    private readonly ownerOf: (value: V) => string,
    private readonly changes: ChangeSignal,
    private readonly maxEntries: number,
  ) {}

  find(key: string): V | undefined | Promise<V | undefined> {
    const cached = this.known.get(key);
    if (cached && this.changes.unchangedSince(cached.mark, this.ownerOf(cached.value))) return cached.value;
    const mark = this.changes.mark();
    if (mark === null) return this.read(key);
    const inFlight = this.reading.get(key);
    if (inFlight && inFlight.mark === mark) return inFlight.value;
    return this.remember(key, mark, this.read(key));
  }

  /**
   * `find` for many keys, those neither known nor being read read together by `readMany` (one
   * statement for all: a team type's hosts), each then known and in flight as `find` makes it.
   */
  protected async findMany(
    keys: readonly string[],
    readMany: (keys: readonly string[]) => Promise<Map<string, V>>,
  ): Promise<Array<V | undefined>> {
    const mark = this.changes.mark();
    const unread: string[] = [];
    const found = keys.map((key) => {
      const cached = this.known.get(key);
      if (cached && this.changes.unchangedSince(cached.mark, this.ownerOf(cached.value))) return cached.value;
      const inFlight = mark === null ? undefined : this.reading.get(key);
      if (inFlight && inFlight.mark === mark) return inFlight.value;
      unread.push(key);
      return undefined;
    });
    const read = unread.length === 0 ? undefined : readMany(unread);
    const reads = unread.map((key) => {
      const value = read!.then((values) => values.get(key));
      return mark === null ? value : this.remember(key, mark, value);
    });
    let next = 0;
    return Promise.all(found.map((value) => value ?? reads[next++]!));
  }

  /** The record read as of `mark`, known once read and meanwhile the key's read in flight. */
  private remember(key: string, mark: number, read: Promise<V | undefined>): Promise<V | undefined> {
    const value = read.then(
      (found) => {
        if (this.reading.get(key)?.value === value) this.reading.delete(key);
        if (found !== undefined) {
          if (this.known.size >= this.maxEntries) this.known.clear();
          this.known.set(key, { mark, value: found });
        }
        return found;
      },
      (error: unknown) => {
        if (this.reading.get(key)?.value === value) this.reading.delete(key);
        throw error;
      },
    );
    // Bounded as `known` is: one entry per key read at this moment.
    if (this.reading.size >= this.maxEntries) this.reading.clear();
    this.reading.set(key, { mark, value });
    return value;
  }

  clear(): void {
    this.known.clear();
    this.reading.clear();
  }
}
