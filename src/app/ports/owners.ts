// The store's records of who owns what (contract §12): accounts, their holders, and the keys of
// both. Part of the calendar store (store.ts), read outside a transaction and written in one.
import type { Account, ApiKey, Holder, NamedKey, NewHolder } from '../../domain/api-key.js';
import type { Instant } from '../../domain/instant.js';
import type { PageRequest } from '../../domain/page.js';
import type { Schedule } from '../../domain/schedule.js';

export interface AccountReads {
  get(id: string): Promise<Account | undefined>;
  findByName(name: string): Promise<Account | undefined>;
  findByHandle(handle: string): Promise<Account | undefined>;
}

export interface AccountWrites extends AccountReads {
  /**
   * The account of that name, created as `candidate` if there is none yet (also when two create
   * it at once), with the first free handle derived from the name.
   */
  ensure(candidate: Pick<Account, 'id' | 'name' | 'createdAt'>): Promise<Account>;
  /**
   * Serialises changes to the account's holders (their number, their names) until the
   * transaction ends: PostgreSQL locks the account row; SQLite's writers run one at a time.
   */
  lock(id: string): Promise<void>;
  /** Changes the account's profile; throws `UniqueViolation` when the handle is another account's. */
  updateProfile(id: string, profile: Pick<Account, 'handle' | 'displayName' | 'updatedAt'>): Promise<void>;
}

/** A holder as a request acting for it needs it: read with its calendar version, in one statement. */
export interface ActingHolder {
  id: string;
  accountId: string;
  name: string;
  handle: string;
  calendarVersion: number;
  deletedAt: Instant | null;
}

/** What `GET /holders` filters by: each given field equal. */
export interface HolderFilter {
  handle: string | null;
  email: string | null;
}

export interface HolderReads {
  /** The holder, deleted or not. */
  get(id: string): Promise<Holder | undefined>;
  /** The account's live holders, by creation then id. */
  list(accountId: string, filter: HolderFilter, page: PageRequest): Promise<Holder[]>;
  countLive(accountId: string): Promise<number>;
  /** Handles of live holders equal to `base` or of the form `base-N`. */
  handlesLike(base: string): Promise<Set<string>>;
  /** The account's live holder of that name. */
  findByName(accountId: string, name: string): Promise<Holder | undefined>;
  /** The live holder at a booking page's handle, with its calendar version (what `CalendarCache.current` takes). */
  findByHandle(handle: string): Promise<{ holder: Holder; calendarVersion: number } | undefined>;
  /** The holder (deleted or not) with its calendar version: what `HolderCache` keeps. */
  acting(id: string): Promise<ActingHolder | undefined>;
  /** The same for many (a team type's hosts, in one statement): those of `ids` that exist. */
  actingOf(ids: readonly string[]): Promise<ActingHolder[]>;
  /**
   * A number that changes in every transaction that changes the holder's event types,
   * schedules or bookings (undefined for no such holder): what caches of derived data check.
   */
  calendarVersion(holderId: string): Promise<number | undefined>;
}

export interface HolderWrites extends HolderReads {
  /**
   * The account's live holder of that name, created as `candidate` if there is none yet (also
   * when two create it at once), with the first free handle derived from the name and with
   * `defaultSchedule` (contract §13: there is never a holder without its default schedule).
   */
  ensure(candidate: NewHolder, defaultSchedule: Schedule): Promise<Holder>;
  /**
   * Stores a new holder; false, storing nothing, when its name is taken among its account's live
   * holders or its handle among all live holders (also by a concurrent transaction); stored with
   * `defaultSchedule`, as `ensure` stores a holder.
   */
  insert(holder: Holder, defaultSchedule: Schedule): Promise<boolean>;
  /** Writes name, handle, display name, e-mail and `updatedAt`; throws `UniqueViolation` when the name or handle is taken. */
  update(holder: Holder): Promise<void>;
  /**
   * The live holder, its row locked until the transaction ends (PostgreSQL `for update`), so that
   * it waits for every transaction writing a booking, hold or key of the holder (their foreign
   * key holds the row): what deciding the holder's deletion, or its number of keys, reads first.
   */
  lockedLive(id: string): Promise<Holder | undefined>;
  /**
   * Whether the holder has a confirmed booking that has not ended at `now`, its own or a team
   * booking it hosts (contract §14): it is still in use.
   */
  hasBookingsNotEnded(id: string, now: Instant): Promise<boolean>;
  /** Whether the holder hosts a live team event type (contract §14): it is still in use. */
  hostsLiveTeamType(id: string): Promise<boolean>;
  /**
   * Those of `ids` that are live holders of the account, each kept from being deleted until the
   * transaction ends: PostgreSQL share-locks their rows (`for key share`), so a deletion, which
   * locks its holder's row first, waits for this transaction and then sees what it wrote, and
   * one that committed first is seen here as deleted. What hosts a team event type reads first.
   */
  keepLive(accountId: string, ids: readonly string[]): Promise<Set<string>>;
  /** Sets `deleted_at` (its name and handle are free again) and moves its calendar feed to a new generation. */
  markDeleted(id: string, at: Instant): Promise<void>;
  /** Changes the public profile; throws `UniqueViolation` when the handle is another holder's. */
  updateProfile(id: string, profile: { handle: string; displayName: string | null }): Promise<void>;
  /** Moves the calendar feed to its next generation (the old link stops working); returns the new one. */
  rotateFeed(id: string): Promise<number>;
  /**
   * Changes the calendar version where no trigger does (busy time: a sync replaces thousands of
   * rows, one bump is enough). PostgreSQL: takes the holder row's lock, as every bump does.
   */
  bumpCalendarVersion(id: string): Promise<void>;
}

/**
 * A key as authentication reads it, in one statement: with its holder (null for an account key)
 * and that holder's calendar version.
 */
export interface AuthenticatedKey extends ApiKey {
  holder: ActingHolder | null;
}

export interface ApiKeyReads {
  findByDigest(digest: string): Promise<AuthenticatedKey | undefined>;
  /** The key, revoked or not. */
  get(id: string): Promise<ApiKey | undefined>;
  /** The holder's keys, revoked ones too, by creation then id. */
  listOf(holderId: string, page: PageRequest): Promise<ApiKey[]>;
  /** The holder's keys that are not revoked (expired ones count until revoked). */
  countUnrevoked(holderId: string): Promise<number>;
  /** Every key, with the names of its account and holder (`keys list`). */
  list(): Promise<NamedKey[]>;
  count(): Promise<number>;
}

export interface ApiKeyWrites extends ApiKeyReads {
  insert(key: ApiKey, digest: string): Promise<void>;
  /** False when no such key exists or it was revoked already. */
  revoke(id: string, at: Instant): Promise<boolean>;
  /** Revokes the holder's key; false when the holder has no such key or it was revoked already. */
  revokeOf(holderId: string, id: string, at: Instant): Promise<boolean>;
  /** Revokes every key of the holder (it is being deleted). */
  revokeAllOf(holderId: string, at: Instant): Promise<void>;
}
