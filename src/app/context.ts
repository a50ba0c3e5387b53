import type { BookingBatches } from './booking-batches.js';
import type { Scope } from '../domain/api-key.js';
import type { Instant } from '../domain/instant.js';
import type { Zones } from '../domain/zone.js';
import type { HolderCache, KeyCache, TeamEventTypeCache } from './key-cache.js';
import type { CalendarCache } from './calendars.js';
import type { TeamSlotCache } from './team-slot-cache.js';
import type { GuestLinks } from './guest-links.js';
import type { IdGenerator } from './ids.js';
import type { BusyParser } from './ports/busy-parser.js';
import type { CalendarFetcher } from './ports/calendar-fetcher.js';
import type { Keyring } from './ports/keyring.js';
import type { Store } from './ports/store.js';
import type { SyncLimits } from './sync-limits.js';

/**
 * What every use case runs against, built once by the composition root (src/server.ts): the
 * store, the clock (injected so tests can move time), the caches of the process, and settings.
 */
export interface AppContext {
  store: Store;
  now: () => Instant;
  ids: IdGenerator;
  zones: Zones;
  calendars: CalendarCache;
  keys: KeyCache;
  /** The holders account keys act for (`Slotwise-Holder`). */
  holders: HolderCache;
  /** Team event types by id (contract §14), for their slots. */
  teamEventTypes: TeamEventTypeCache;
  /** Bookings of one start of a holder's event type, decided together while one is being decided. */
  bookingBatches: BookingBatches;
  /** Team event types' combined slots, kept while their hosts' tracks are unchanged. */
  teamSlots: TeamSlotCache;
  /** Makes and opens the guests' and feeds' capability links (contract §10). */
  links: GuestLinks;
  webhooks: WebhookSettings;
  pages: PageSettings;
  accounts: AccountSettings;
  /** The server's secrets (SLOTWISE_SECRET): seal calendar sources' addresses and credentials. */
  secrets: Keyring;
  calendarSources: CalendarSourceSettings;
  /** Reads calendar sources (ICS and CalDAV over HTTP, through the address guard). */
  calendarFetcher: CalendarFetcher;
  /** Turns what a source returned into busy time, off the event loop; holders' parses take turns. */
  busyParser: BusyParser;
  /** What the process's syncs share: fetches at once, room for parsing, `POST …/sync` per source. */
  syncLimits: SyncLimits;
  /** Called after a commit that enqueued deliveries, so a worker in this process sends them at once. */
  outboxChanged?: () => void;
  /** How e-mail is sent (contract §16); absent when `SMTP_URL` is unset: then no e-mail is written. */
  email?: EmailSettings;
  /** Called after a commit that wrote e-mails, so the e-mail worker in this process sends them at once. */
  emailsQueued?: () => void;
  /** Called after a commit that wrote writes to hosts' own calendars, so the calendar writer in this process makes them at once. */
  calendarWritesQueued?: () => void;
  /** Called after a source was added or readdressed, so the sync worker in this process reads it at once. */
  sourcesChanged?: () => void;
}

/** How the service sends e-mail (contract §16); absent from the context when `SMTP_URL` is unset. */
export interface EmailSettings {
  /** `EMAIL_FROM`. */
  from: string;
  /** `EMAIL_PER_RECIPIENT_PER_HOUR`: messages to one address an hour at the most. */
  perRecipientPerHour: number;
}

export interface CalendarSourceSettings {
  /** Lets sources be on loopback, private and other non-public addresses (`CALENDAR_ALLOW_PRIVATE_TARGETS`). */
  allowPrivateTargets: boolean;
  /** Sources one holder may have (`CALENDAR_SOURCES_PER_HOLDER`). */
  limitPerHolder: number;
  /** How often each source is read (`CALENDAR_SYNC_INTERVAL_MS`). */
  syncIntervalMs: number;
  /** How far ahead busy time is kept (`CALENDAR_HORIZON_DAYS`); slots beyond it see no busy time. */
  horizonDays: number;
  /** How long one read of a source may take, body included (`CALENDAR_SYNC_TIMEOUT_MS`). */
  timeoutMs: number;
  /** The largest calendar read, in bytes after decompression (`CALENDAR_MAX_SIZE_MB`). */
  maxBytes: number;
  /**
   * Calendar fetches one process runs at once, the sync worker's and `POST …/sync`'s together
   * (`CALENDAR_SYNC_CONCURRENCY`); more wait their turn, holders round-robin.
   */
  syncConcurrency: number;
  /**
   * Characters of fetched calendars one process holds for parsing, waiting or being parsed
   * (`CALENDAR_PARSE_QUEUE_MB`); a fetched calendar waits (holding its fetch's turn) until there is room.
   */
  parseQueueBytes: number;
  /** Bounds of one fetch of a source (all its objects together): events, busy intervals in the horizon, recurrence work. */
  maxEvents: number;
  maxIntervals: number;
  maxRecurrenceSteps: number;
}

export interface PageSettings {
  /** Live holds made on one holder's booking pages at once (`PUBLIC_HOLDS_PER_HOLDER`). */
  holdsPerHolder: number;
  /**
   * Of those, the most one client (an address, or an IPv6 /64) holds at once
   * (`PUBLIC_HOLDS_PER_CLIENT`): however many sessions it makes, one client cannot take the
   * holder's page holds, so the holder's other guests are never kept from holding.
   */
  holdsPerClient: number;
}

/** The bounds of what an account makes through the API (contract §12: every collection has one). */
export interface AccountSettings {
  /** Live holders one account may have (`HOLDERS_PER_ACCOUNT`). */
  holdersPerAccount: number;
  /** Keys one holder may have that are not revoked (`KEYS_PER_HOLDER`). */
  keysPerHolder: number;
  /** Live team event types one account may have (`TEAM_EVENT_TYPES_PER_ACCOUNT`). */
  teamEventTypesPerAccount: number;
  /** Schedules one holder may have, its default one included (`SCHEDULES_PER_HOLDER`, contract §13). */
  schedulesPerHolder: number;
}

export interface WebhookSettings {
  /** Lets webhooks target loopback, private and other non-public addresses (local development, tests). */
  allowPrivateTargets: boolean;
  /** Webhooks one holder may register: each costs the delivery worker, whoever's it is. */
  limitPerHolder: number;
  /** Account webhooks (registered in account scope) one account may register, besides its holders'. */
  limitPerAccount: number;
}

/** A holder as a request names it. */
export interface HolderRef {
  id: string;
  name: string;
  /** Where the holder's booking pages live: `/book/{handle}`. */
  handle: string;
}

/**
 * Who sent a request (contract §12): a key of an account, and whom the request acts for: the
 * key's own holder, the holder an account key names in `Slotwise-Holder`, or nobody (an
 * account key without the header: account scope).
 */
export interface Principal {
  accountId: string;
  keyId: string;
  /** The key's own holder; null for an account key. */
  keyHolderId: string | null;
  scopes: Scope[];
  keyCreatedAt: Instant;
  keyExpiresAt: Instant | null;
  /** Null in account scope. */
  actingFor: HolderRef | null;
}

/** A request acting for one holder: what every use case of a holder's own resources takes. */
export interface Caller {
  accountId: string;
  holderId: string;
  holderName: string;
  /** Where the holder's booking pages live: `/book/{handle}`. */
  holderHandle: string;
  keyId: string;
  scopes: Scope[];
  keyCreatedAt: Instant;
  keyExpiresAt: Instant | null;
}

/** The principal acting for `holder` (its own, or one of its account's that it may act for). */
export function callerFor(principal: Principal, holder: HolderRef): Caller {
  return {
    accountId: principal.accountId,
    holderId: holder.id,
    holderName: holder.name,
    holderHandle: holder.handle,
    keyId: principal.keyId,
    scopes: principal.scopes,
    keyCreatedAt: principal.keyCreatedAt,
    keyExpiresAt: principal.keyExpiresAt,
  };
}

/**
 * Whose requests a rate limit counts and an `Idempotency-Key` belongs to: the key, and for an
 * account key acting for a holder, that holder too (contract §12), so one busy holder of an
 * account does not use up the others' requests, and a key reused for another holder is another key.
 */
export function requesterOf(principal: Principal): string {
  return principal.keyHolderId === null && principal.actingFor !== null
    ? `${principal.keyId}/${principal.actingFor.id}`
    : principal.keyId;
}
