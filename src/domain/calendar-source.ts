import type { FieldError } from './errors.js';
import type { Instant } from './instant.js';

export const CALENDAR_SOURCE_TYPES = ['ics', 'caldav'] as const;
export type CalendarSourceType = (typeof CALENDAR_SOURCE_TYPES)[number];
export type CalendarSourceStatus = 'pending' | 'ok' | 'error';

/** A holder's calendar whose events are busy time (contract §11), as the API shows it. */
export interface CalendarSource {
  id: string;
  holderId: string;
  type: CalendarSourceType;
  name: string | null;
  /** What may be shown of the address: an ICS address's origin only (the rest is a credential); a CalDAV URL without user info. */
  url: string;
  status: CalendarSourceStatus;
  lastSyncedAt: Instant | null;
  /** Why the last sync failed, for people; never the address, a user name or a password. */
  lastError: string | null;
  /** The holder's bookings are written to this calendar (contract §16; CalDAV only, one per holder). */
  writeBookings: boolean;
  /** Why the last write of a booking to this calendar failed; null when it succeeded. */
  lastWriteError: string | null;
  createdAt: Instant;
  updatedAt: Instant;
}

/** A busy interval as `GET /busy` lists it: with the source it comes from. */
export interface SourceBusy {
  start: Instant;
  end: Instant;
  sourceId: string;
}

/** Where the source is and how to sign in: stored sealed, opened only to fetch. */
export interface SourceAddress {
  type: CalendarSourceType;
  url: string;
  username?: string;
  password?: string;
}

/** The address as written by the client, checked: `webcal:` is https, user info is refused (credentials go in their fields). */
export function sourceAddressProblems(address: SourceAddress): { url: string; errors: FieldError[] } {
  const errors: FieldError[] = [];
  let parsed: URL | undefined;
  try {
    parsed = new URL(address.url.trim().replace(/^webcals?:\/\//i, 'https://'));
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol))
    errors.push({ field: 'url', message: 'must be an absolute http, https or webcal URL' });
  else if (parsed.username || parsed.password)
    errors.push({
      field: 'url',
      message: 'must not hold a user name or password (send them as username and password)',
    });
  else if (parsed.hash) errors.push({ field: 'url', message: 'must not have a fragment' });
  if (address.type === 'caldav') {
    if (!address.username) errors.push({ field: 'username', message: 'is required for a caldav source' });
    if (address.password === undefined || address.password === '')
      errors.push({ field: 'password', message: 'is required for a caldav source' });
  } else {
    if (address.username !== undefined) errors.push({ field: 'username', message: 'is only for caldav sources' });
    if (address.password !== undefined) errors.push({ field: 'password', message: 'is only for caldav sources' });
  }
  return { url: parsed && errors.length === 0 ? parsed.toString() : address.url, errors };
}

/**
 * What the API shows of an address (contract §11): for an ICS source only its origin (a secret
 * ICS address is a credential: whoever has it reads the calendar), for a CalDAV source the URL,
 * which holds no secret once user info is refused.
 */
export function shownUrl(type: CalendarSourceType, url: string): string {
  const parsed = new URL(url);
  return type === 'ics' ? `${parsed.origin}/…` : parsed.toString();
}
