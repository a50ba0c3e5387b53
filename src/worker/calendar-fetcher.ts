// Reads a holder's calendar source over HTTP (contract §11): an ICS address with conditional GETs,
// or a CalDAV calendar collection (a PROPFIND for its CTag and sync-token, then a calendar-query
// REPORT over the window). Every request goes through the guarded pipeline (safe-fetch.ts: the
// address guard on every connection, redirects followed a bounded number of times, decompression);
// a fetch is bounded in time (one deadline for all its requests and bodies) and in bytes (one
// budget for all its bodies, counted after decompression); and what it reports on failure is a
// fixed phrase, never the address, its host, the user name or the password: a secret ICS address
// is a credential.
//
// CalDAV is two requests with fixed XML bodies (a PROPFIND, a calendar-query REPORT), sent like
// ICS requests (the guard, redirects, the deadline, the byte budget), whose multistatus answers are
// read by dav-multistatus.ts: in slices with the event loop free between them, linear in the
// answer, and capped (CALDAV_ANSWER_LIMITS). It used to be tsdav, whose reader (xml-js, then a
// property merge per text and per propstat) is quadratic in the children of one element and runs
// in one piece: one 330 KB PROPFIND answer held every request of the process for ~15 s, past the
// deadline, which cannot interrupt synchronous work (issue 25, finding 2). A reader in a worker
// thread with a timeout would have bounded the stall but still burnt a core for the whole
// timeout on each hostile sync; a bounded streaming reader needs neither the thread nor its
// memory, and the requests tsdav built for us are two constant documents.
import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { CalendarFetcher, FetchOutcome, SourceAddress } from '../app/ports/calendar-fetcher.js';
import type { Interval } from '../domain/intervals.js';
import {
  MultistatusLimitExceeded,
  qualified,
  readMultistatus,
  type DavResponse,
  type MultistatusLimits,
} from './dav-multistatus.js';
import type { AddressPolicy } from './guarded-http.js';
import { Deadline, discard, failureKind, httpUrl, SafeFetch, type FailureKind, type Outgoing } from './safe-fetch.js';

export interface CalendarFetcherOptions {
  /** One deadline for the whole fetch: every request, redirect and body. */
  timeoutMs: number;
  /** One budget for every body of a fetch, after decompression. */
  maxBytes: number;
  /** CALENDAR_ALLOW_PRIVATE_TARGETS: reach loopback, private and link-local addresses too. */
  allowPrivateTargets: boolean;
  /** Redirects followed per request (default 5). */
  maxRedirects?: number;
  /** The guard's address policy (default: every non-public address); tests narrow it. */
  forbiddenAddress?: AddressPolicy;
}

/** What a fetch keeps between syncs (the port's opaque `state`, as JSON). */
export interface IcsState {
  etag: string | null;
  lastModified: string | null;
  /** SHA-256 of the text: an unchanged text is `unchanged` even from a server without validators. */
  sha256: string;
}

export interface CalDavState {
  ctag: string | null;
  syncToken: string | null;
  /** SHA-256 of the objects' texts (in href order) read over the window. */
  sha256: string;
}

export const CALENDAR_MESSAGES = {
  refusedCredentials: 'the CalDAV server refused the user name or password',
  notICalendar: 'the address did not return an iCalendar file',
  notCalDav: 'the address is not a CalDAV calendar',
  unreadableDav: 'the CalDAV server sent an answer that could not be read',
  forbiddenTarget: 'refused to connect to a non-public address',
  invalidAddress: 'the calendar address is not a valid http or https address',
  redirectNotHttp: 'the calendar server redirected to an address that is not http or https',
  unresolvable: "the calendar server's name could not be resolved",
  connectionRefused: 'the calendar server refused the connection',
  connectionClosed: 'the calendar server closed the connection',
  tls: "the calendar server's TLS certificate was not accepted",
  undecodable: 'the calendar server sent a body that could not be decompressed',
  unreadable: 'the calendar server could not be read',
  stopped: 'the sync was stopped (the server is shutting down)',
} as const;

/**
 * The caps of one CalDAV answer, besides the fetch's deadline and byte budget (docs/api.md,
 * "Limits"). The PROPFIND asks one collection (depth 0) for three properties: Radicale answers in
 * under 1 KB with 10 elements. The REPORT answers about 7 elements per object (response, href,
 * propstat, prop, getetag, calendar-data, status): 200,000 is ten per event of the 20,000 a
 * calendar may have. Depth and attributes: a multistatus needs 6 levels and a few namespace
 * declarations.
 */
export const CALDAV_ANSWER_LIMITS = {
  propfindBytes: 64 * 1024,
  propfind: { maxElements: 1_000, maxElementsPerResponse: 256, maxDepth: 32, maxAttributes: 32 },
  report: { maxElements: 200_000, maxElementsPerResponse: 256, maxDepth: 32, maxAttributes: 32 },
} as const satisfies { propfindBytes: number; propfind: MultistatusLimits; report: MultistatusLimits };

const CALDAV = 'urn:ietf:params:xml:ns:caldav';
const CALENDARSERVER = 'http://calendarserver.org/ns/';
const GETCTAG = qualified(CALENDARSERVER, 'getctag');
const SYNC_TOKEN = qualified('DAV:', 'sync-token');
const RESOURCETYPE = qualified('DAV:', 'resourcetype');
const CALENDAR_DATA = qualified(CALDAV, 'calendar-data');
/** The child of a calendar collection's resourcetype. */
const CALENDAR_COLLECTION = qualified(CALDAV, 'calendar');

/** The collection's CTag and sync-token, and whether it is a calendar (RFC 4791 §4.2). */
const PROPFIND_BODY = `<?xml version="1.0" encoding="utf-8"?>
<d:propfind xmlns:d="DAV:" xmlns:cs="${CALENDARSERVER}">
  <d:prop><cs:getctag/><d:sync-token/><d:resourcetype/></d:prop>
</d:propfind>`;

/**
 * The objects with an event overlapping the window, whole (masters with their overrides: the
 * engine expands them), in one calendar-query (RFC 4791 §7.8).
 */
function calendarQueryBody(window: Interval): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<c:calendar-query xmlns:c="${CALDAV}" xmlns:d="DAV:">
  <d:prop><d:getetag/><c:calendar-data/></d:prop>
  <c:filter>
    <c:comp-filter name="VCALENDAR">
      <c:comp-filter name="VEVENT">
        <c:time-range start="${caldavTime(window.start)}" end="${caldavTime(window.end)}"/>
      </c:comp-filter>
    </c:comp-filter>
  </c:filter>
</c:calendar-query>`;
}

/** A failure whose message is fit for people and for `lastError`: fixed phrases and numbers only. */
class SourceFailure extends Error {}

/** One fetch's bounds: its deadline and the bytes its bodies may still take. */
interface Budget {
  deadline: Deadline;
  bytesLeft: number;
}

/** A bound on one answer's body, below the fetch's budget, and what a body past it fails with. */
interface AnswerCap {
  bytes: number;
  tooLarge: string;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  /** Empty unless the status is 2xx. */
  body: Buffer;
}

export class HttpCalendarFetcher implements CalendarFetcher {
  private readonly http: SafeFetch;
  private readonly maxRedirects: number;

  constructor(private readonly options: CalendarFetcherOptions) {
    this.http = new SafeFetch({
      allowPrivateTargets: options.allowPrivateTargets,
      forbiddenAddress: options.forbiddenAddress,
      userAgent: 'Slotwise-Calendar/1',
      decompress: true,
    });
    this.maxRedirects = options.maxRedirects ?? 5;
  }

  async fetch(
    address: SourceAddress,
    state: string | null,
    window: Interval,
    signal?: AbortSignal,
  ): Promise<FetchOutcome> {
    const budget: Budget = { deadline: new Deadline(this.options.timeoutMs, signal), bytesLeft: this.options.maxBytes };
    try {
      if (budget.deadline.signal.aborted) throw budget.deadline.signal.reason;
      const { url, authorization } = sourceTarget(address);
      return address.type === 'caldav'
        ? await this.fetchCalDav(url, authorization, parseCalDavState(state), window, budget)
        : await this.fetchIcs(url, authorization, parseIcsState(state), budget);
    } catch (error) {
      return { kind: 'failed', error: this.describe(error, budget.deadline) };
    }
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private async fetchIcs(
    url: URL,
    authorization: string | null,
    previous: IcsState | null,
    budget: Budget,
  ): Promise<FetchOutcome> {
    const headers: Record<string, string> = { accept: 'text/calendar, */*;q=0.1' };
    if (authorization) headers.authorization = authorization;
    if (previous?.etag) headers['if-none-match'] = previous.etag;
    if (previous?.lastModified) headers['if-modified-since'] = previous.lastModified;
    const answer = await this.exchange(url, { method: 'GET', headers }, budget);
    if (answer.status === 304 && previous && (previous.etag || previous.lastModified)) {
      const kept: IcsState = {
        etag: answer.headers.etag ?? previous.etag,
        lastModified: answer.headers['last-modified'] ?? previous.lastModified,
        sha256: previous.sha256,
      };
      return { kind: 'unchanged', state: JSON.stringify(kept) };
    }
    if (answer.status < 200 || answer.status >= 300) throw statusFailure(answer.status);
    const text = new TextDecoder('utf-8').decode(answer.body).replace(/^\s+/, '');
    if (!/^BEGIN:VCALENDAR[ \t]*\r?\n/i.test(text)) throw new SourceFailure(CALENDAR_MESSAGES.notICalendar);
    const next: IcsState = {
      etag: answer.headers.etag ?? null,
      lastModified: answer.headers['last-modified'] ?? null,
      sha256: sha256([text]),
    };
    if (previous && previous.sha256 === next.sha256) return { kind: 'unchanged', state: JSON.stringify(next) };
    return { kind: 'changed', calendars: [text], state: JSON.stringify(next) };
  }

  private async fetchCalDav(
    collection: URL,
    authorization: string | null,
    previous: CalDavState | null,
    window: Interval,
    budget: Budget,
  ): Promise<FetchOutcome> {
    const found = await this.davRequest(
      collection,
      { method: 'PROPFIND', depth: '0', body: PROPFIND_BODY, authorization },
      { wanted: new Set([GETCTAG, SYNC_TOKEN, RESOURCETYPE]), limits: CALDAV_ANSWER_LIMITS.propfind },
      budget,
      {
        bytes: CALDAV_ANSWER_LIMITS.propfindBytes,
        tooLarge: `the CalDAV server's answer to PROPFIND is larger than ${CALDAV_ANSWER_LIMITS.propfindBytes / 1024} KB`,
      },
    );
    if (!found || found.length === 0) throw new SourceFailure(CALENDAR_MESSAGES.notCalDav);
    const self =
      found.find((entry) => sameResource(entry.href, collection)) ?? (found.length === 1 ? found[0] : undefined);
    if (!self?.ok || !self.props.get(RESOURCETYPE)?.children.includes(CALENDAR_COLLECTION)) {
      throw new SourceFailure(CALENDAR_MESSAGES.notCalDav);
    }
    const ctag = self.props.get(GETCTAG)?.text ?? null;
    const syncToken = self.props.get(SYNC_TOKEN)?.text ?? null;
    if (
      previous &&
      (ctag !== null || syncToken !== null) &&
      ctag === previous.ctag &&
      syncToken === previous.syncToken
    ) {
      return { kind: 'unchanged', state: JSON.stringify(previous) };
    }

    // An object answered with an error status is left out (tsdav's calendarQuery threw on it).
    const objects = await this.davRequest(
      collection,
      { method: 'REPORT', depth: '1', body: calendarQueryBody(window), authorization },
      { wanted: new Set([CALENDAR_DATA]), limits: CALDAV_ANSWER_LIMITS.report },
      budget,
    );
    if (!objects) throw new SourceFailure(CALENDAR_MESSAGES.unreadableDav);
    const calendars = objects
      .filter((entry) => entry.ok)
      .map((entry) => ({ href: entry.href, text: entry.props.get(CALENDAR_DATA)?.text ?? '' }))
      .filter((entry) => entry.text !== '')
      .sort((a, b) => (a.href < b.href ? -1 : a.href > b.href ? 1 : 0))
      .map((entry) => entry.text);
    const next: CalDavState = { ctag, syncToken, sha256: sha256(calendars) };
    if (previous && previous.sha256 === next.sha256) return { kind: 'unchanged', state: JSON.stringify(next) };
    return { kind: 'changed', calendars, state: JSON.stringify(next) };
  }

  /**
   * One DAV request through `exchange` (guard, redirects, budget, deadline), with the credentials
   * (dropped on a redirect to another origin), and its multistatus answer read (dav-multistatus.ts).
   * 401/403 and every other non-2xx answer are failures; an answer that is not XML, or not a
   * multistatus, is null.
   */
  private async davRequest(
    url: URL,
    outgoing: { method: 'PROPFIND' | 'REPORT'; depth: '0' | '1'; body: string; authorization: string | null },
    reading: { wanted: ReadonlySet<string>; limits: MultistatusLimits },
    budget: Budget,
    cap?: AnswerCap,
  ): Promise<DavResponse[] | null> {
    const headers: Record<string, string> = {
      'content-type': 'application/xml; charset=utf-8',
      depth: outgoing.depth,
    };
    if (outgoing.authorization) headers.authorization = outgoing.authorization;
    const answer = await this.exchange(url, { method: outgoing.method, headers, body: outgoing.body }, budget, cap);
    if (answer.status === 401 || answer.status === 403) throw new SourceFailure(CALENDAR_MESSAGES.refusedCredentials);
    if (answer.status < 200 || answer.status >= 300) throw statusFailure(answer.status);
    if (!answer.headers['content-type']?.toLowerCase().includes('xml')) return null;
    try {
      // DAV bodies are XML in UTF-8 (RFC 4918 §8.1 requires UTF-8 or UTF-16 with a declaration).
      return await readMultistatus(answer.body, reading.wanted, reading.limits, budget.deadline.signal);
    } catch (error) {
      if (error instanceof MultistatusLimitExceeded) throw new SourceFailure(error.message);
      throw error;
    }
  }

  /**
   * One request through the pipeline (the guard, at most `maxRedirects` redirects, credentials
   * kept only within the first origin), and a 2xx body read within the budget (and within `cap`,
   * when given); any other answer comes back with an empty body.
   */
  private async exchange(url: URL, outgoing: Outgoing, budget: Budget, cap?: AnswerCap): Promise<Answer> {
    const answer = await this.http.request(url, outgoing, budget.deadline, { max: this.maxRedirects });
    if (answer.status < 200 || answer.status >= 300) {
      discard(answer.body);
      return { status: answer.status, headers: answer.headers, body: Buffer.alloc(0) };
    }
    const limit = Math.min(budget.bytesLeft, cap?.bytes ?? Infinity);
    const tooLarge = (bytes: number): SourceFailure =>
      new SourceFailure(cap && bytes > cap.bytes ? cap.tooLarge : tooLargeText(this.options.maxBytes));
    const declared = Number(answer.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      discard(answer.body);
      throw tooLarge(declared);
    }
    const read = await this.http.read(answer, limit);
    if (read.over) throw tooLarge(read.size);
    budget.bytesLeft -= read.size;
    return { status: answer.status, headers: answer.headers, body: read.bytes };
  }

  /** The failure's text for people: a fixed phrase chosen by what failed, never the error's own message. */
  private describe(error: unknown, deadline: Deadline): string {
    if (error instanceof SourceFailure) return error.message;
    const kind = failureKind(error, deadline);
    if (kind === 'deadline' || kind === 'stalled') return timeoutText(this.options.timeoutMs);
    if (kind === 'too-many-redirects') return `the calendar server redirected more than ${this.maxRedirects} times`;
    return FAILURE_MESSAGES[kind];
  }
}

const FAILURE_MESSAGES: Record<Exclude<FailureKind, 'deadline' | 'stalled' | 'too-many-redirects'>, string> = {
  stopped: CALENDAR_MESSAGES.stopped,
  forbidden: CALENDAR_MESSAGES.forbiddenTarget,
  'not-http': CALENDAR_MESSAGES.invalidAddress,
  'redirect-not-http': CALENDAR_MESSAGES.redirectNotHttp,
  unresolvable: CALENDAR_MESSAGES.unresolvable,
  refused: CALENDAR_MESSAGES.connectionRefused,
  closed: CALENDAR_MESSAGES.connectionClosed,
  tls: CALENDAR_MESSAGES.tls,
  undecodable: CALENDAR_MESSAGES.undecodable,
  other: CALENDAR_MESSAGES.unreadable,
};

/**
 * The URL to request and the credentials to send: `webcal:` is https (Apple and Google publish
 * such addresses); user info in the URL is taken out of it and sent as HTTP Basic, unless the
 * source has its own user name.
 */
export function sourceTarget(address: SourceAddress): { url: URL; authorization: string | null } {
  let given: URL;
  let url: URL;
  try {
    given = new URL(address.url.trim());
    url = httpUrl(given);
  } catch {
    throw new SourceFailure(CALENDAR_MESSAGES.invalidAddress);
  }
  let username = address.username ?? null;
  let password = address.password ?? '';
  if (username === null && given.username) {
    username = decodeURIComponent(given.username);
    password = decodeURIComponent(given.password);
  }
  const authorization =
    username === null ? null : `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
  return { url, authorization };
}

function statusFailure(status: number): SourceFailure {
  const reason = STATUS_CODES[status];
  return new SourceFailure(`the calendar server answered ${status}${reason ? ` ${reason}` : ''}`);
}

function tooLargeText(maxBytes: number): string {
  return `the calendar is larger than ${Number((maxBytes / 1_048_576).toFixed(2))} MB`;
}

function timeoutText(timeoutMs: number): string {
  return `the calendar server did not answer within ${Number((timeoutMs / 1000).toFixed(2))} s`;
}

/** Whether a response's href names the collection (relative or whole, with or without its final slash). */
function sameResource(href: string, collection: URL): boolean {
  const withoutSlash = (path: string) => path.replace(/\/+$/, '');
  try {
    const named = new URL(href, collection);
    return named.origin === collection.origin && withoutSlash(named.pathname) === withoutSlash(collection.pathname);
  } catch {
    return false;
  }
}

/** RFC 4791 time-range form: UTC, basic format, whole seconds. */
function caldavTime(instant: number): string {
  return `${new Date(instant).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}

function sha256(texts: string[]): string {
  const hash = createHash('sha256');
  for (const text of texts) hash.update(`${Buffer.byteLength(text)}:`).update(text);
  return hash.digest('hex');
}

function parseState(state: string | null): Record<string, unknown> | null {
  if (!state) return null;
  try {
    const parsed: unknown = JSON.parse(state);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function parseIcsState(state: string | null): IcsState | null {
  const parsed = parseState(state);
  if (!parsed || typeof parsed.sha256 !== 'string') return null;
  return { etag: stringOrNull(parsed.etag), lastModified: stringOrNull(parsed.lastModified), sha256: parsed.sha256 };
}

function parseCalDavState(state: string | null): CalDavState | null {
  const parsed = parseState(state);
  if (!parsed || typeof parsed.sha256 !== 'string') return null;
  return { ctag: stringOrNull(parsed.ctag), syncToken: stringOrNull(parsed.syncToken), sha256: parsed.sha256 };
}
