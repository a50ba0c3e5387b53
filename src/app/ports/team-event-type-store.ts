// The store's records of team event types (contract §14): event types of an account, with their
// hosts. Part of the calendar store (store.ts), read outside a transaction and written in one.
import type { Instant } from '../../domain/instant.js';
import type { TeamEventType } from '../../domain/team-event-type.js';

/** A team event type with the handle of its account, where its booking page lives. */
export type TeamEventTypeWithHandle = TeamEventType & { accountHandle: string };

export interface TeamEventTypeReads {
  /**
   * The live team event type of that id, with its hosts in their order; undefined for none, a
   * deleted one, or a holder's own. Whose account it is, the caller checks.
   */
  get(id: string): Promise<TeamEventTypeWithHandle | undefined>;
  /** The account's live public team event types (its team page, contract §14), by title then id. */
  listPublic(accountId: string): Promise<TeamEventTypeWithHandle[]>;
  /** The account's live public team event type with that slug; undefined for none or a private one. */
  findPublic(accountId: string, slug: string): Promise<TeamEventTypeWithHandle | undefined>;
}

export interface TeamEventTypeWrites extends TeamEventTypeReads {
  /** The account's live team event types. */
  countLive(accountId: string): Promise<number>;
  /** Slugs of the account's live team event types equal to `base` or of the form `base-N`. */
  slugsLike(accountId: string, base: string): Promise<Set<string>>;
  /** Stores it with its hosts; throws `UniqueViolation` when a live team type of the account has the slug. */
  insert(eventType: TeamEventType): Promise<void>;
  /** Writes its fields and replaces its hosts; throws `UniqueViolation` as `insert` does. */
  update(eventType: TeamEventType): Promise<void>;
  /** Marks the account's live team event type deleted (its hosts stay, as its bookings do); false when there is none. */
  delete(accountId: string, id: string, at: Instant): Promise<boolean>;
}
