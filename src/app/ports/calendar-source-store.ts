// The store's records of calendar sources (contract §11): the sources, their sync leases and the
// busy time read from them. Part of the calendar store (store.ts).
import type { CalendarSource, SourceBusy } from '../../domain/calendar-source.js';
import type { Instant } from '../../domain/instant.js';
import type { Interval } from '../../domain/intervals.js';
import type { PageRequest } from '../../domain/page.js';

/** A calendar source as stored: what the API shows, and what only a sync opens. */
export interface StoredSource {
  source: CalendarSource;
  /** The address and credentials, sealed by the keyring (`stored-credentials`, bound to the source's id). */
  sealedAddress: string;
  /** What the fetcher keeps between syncs (ETag, CTag…); opaque here. */
  syncState: string | null;
  /** Names the busy set stored last (null before the first). */
  busyDigest: string | null;
  /** In a failure streak: `calendar_source.failed` was sent, `recovered` is due at the next success. */
  failing: boolean;
}

/** A source as `stored` reads it: with its holder's account, whose turns its syncs take (`FairShare`). */
export interface StoredSourceOfAccount extends StoredSource {
  accountId: string;
}

export interface CalendarSourceReads {
  get(holderId: string, id: string): Promise<CalendarSource | undefined>;
  /** In a transaction, locked until it ends (PostgreSQL `for update`): a sync's result and a change of address take turns. */
  stored(holderId: string, id: string): Promise<StoredSourceOfAccount | undefined>;
  list(holderId: string, page: PageRequest): Promise<CalendarSource[]>;
  count(holderId: string): Promise<number>;
  /** The holder's source its bookings are written to (`writeBookings`), if any. */
  writtenTo(holderId: string): Promise<CalendarSource | undefined>;
}

export interface CalendarSourceWrites extends CalendarSourceReads, SyncLeases {
  insert(stored: StoredSource, nextSyncAt: Instant): Promise<void>;
  /** Writes the source's fields; `nextSyncAt` when given (a new address is synced at once). */
  update(stored: StoredSource, nextSyncAt?: Instant): Promise<void>;
  /** Removes the source with its busy time. */
  delete(holderId: string, id: string): Promise<boolean>;
  /** Removes every source of the holder with their busy time (the holder is being deleted). */
  deleteAllOf(holderId: string): Promise<void>;
}

/**
 * The sync worker's leases: a source is synced by one instance at a time, on any number of
 * instances. A lease lapses at `leaseUntil`, so a crashed instance's sources are synced again.
 * Writes, so taken and given back in a transaction of their own (on SQLite, a write outside one
 * would join whatever unit of the group commit is open on the connection).
 */
export interface SyncLeases {
  /** Leases up to `limit` sources due at `now` that no live lease holds. */
  claimDue(now: Instant, leaseUntil: Instant, limit: number): Promise<Array<{ id: string; holderId: string }>>;
  /** Leases one source now, due or not; false when a live lease holds it (or there is no such source). */
  claim(holderId: string, id: string, now: Instant, leaseUntil: Instant): Promise<boolean>;
  /** Ends the lease; the source is next due at `nextSyncAt`. */
  release(id: string, nextSyncAt: Instant): Promise<void>;
}

export interface BusyTimeReads {
  /** Busy intervals of the holder's sources overlapping [from, to), in no particular order, possibly overlapping each other. */
  overlapping(holderId: string, from: Instant, to: Instant): Promise<Interval[]>;
  /** The same for each of `holderIds` (their calendars, read in one statement), every one of them a key. */
  overlappingOf(holderIds: readonly string[], from: Instant, to: Instant): Promise<Map<string, Interval[]>>;
  /** The same, for a page of `GET /busy`: by start then source id, keyset on both. */
  list(holderId: string, from: Instant, to: Instant, page: PageRequest): Promise<SourceBusy[]>;
}

export interface BusyTimeWrites extends BusyTimeReads {
  /** The source's busy time is now exactly `intervals` (disjoint, by start). */
  replace(holderId: string, sourceId: string, intervals: readonly Interval[]): Promise<void>;
}
