// Reading a holder's calendar source (contract §11): an ICS address, or a CalDAV calendar
// collection. Implemented by src/worker/calendar-fetcher.ts over HTTP, with the webhooks' address
// guard; the sync use case (app/calendar-sync.ts) turns what it reads into busy time.

import type { SourceAddress } from '../../domain/calendar-source.js';
import type { Interval } from '../../domain/intervals.js';

export type { SourceAddress };

/**
 * What a source answered: nothing new since `state` (304 Not Modified, the same CTag or
 * sync-token: the caller writes nothing), its calendar data (one iCalendar text for ICS; one per
 * calendar object for CalDAV), or a failure. `state` is opaque to the caller: it keeps it and gives
 * it back next time (ETag and Last-Modified, or CTag and sync-token).
 */
export type FetchOutcome =
  | { kind: 'unchanged'; state: string | null }
  | { kind: 'changed'; calendars: string[]; state: string | null }
  /** `error`: short, for people, and never holding the source's address, user name or password. */
  | { kind: 'failed'; error: string };

export interface CalendarFetcher {
  /**
   * Reads the source. `window` is the span busy time is kept for (CalDAV asks its server for the
   * events overlapping it; an ICS file is read whole). Never throws: every failure is an outcome.
   */
  fetch(address: SourceAddress, state: string | null, window: Interval, signal?: AbortSignal): Promise<FetchOutcome>;
}
