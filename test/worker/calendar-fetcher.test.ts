// The calendar fetcher over real HTTP: ICS addresses served by a local calendar host
// (support/calendar-server.ts: conditional answers, redirects, hangs, garbage, huge bodies), and
// CalDAV against a real Radicale (support/radicale.ts). Servers listen on 127.0.0.1, so most cases
// allow private targets; the guard's cases do not, and prove that loopback, localhost and a
// redirect to a refused address are never reached. Every failure's text is checked to hold no
// part of the secret address.
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FetchOutcome } from '../../src/app/ports/calendar-fetcher.js';
import { isForbiddenAddress } from '../../src/domain/address-guard.js';
import {
  CALENDAR_MESSAGES,
  HttpCalendarFetcher,
  type CalendarFetcherOptions,
} from '../../src/worker/calendar-fetcher.js';
import { CalendarServer, DEFAULT_LAST_MODIFIED } from '../support/calendar-server.js';
import { calendarPropfind, calendarReport, hostilePropfind, hostileReport } from '../support/hostile-dav.js';
import { Radicale, radicaleGate } from '../support/radicale.js';

const WINDOW = { start: Date.parse('2026-01-01T00:00:00Z'), end: Date.parse('2026-03-12T00:00:00Z') };
const SECRET_PATH = '/calendar/ical/secret-abc123/basic.ics';

function calendar(...events: Array<{ uid: string; start: string; end: string; summary?: string; rrule?: string }>) {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Google Inc//Google Calendar 70.9054//EN'];
  for (const event of events) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${event.uid}`,
      'DTSTAMP:20251220T120000Z',
      `DTSTART:${event.start}`,
      `DTEND:${event.end}`,
      ...(event.rrule ? [`RRULE:${event.rrule}`] : []),
      `SUMMARY:${event.summary ?? 'Busy'}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}

const STANDUP = calendar({ uid: 'standup@test', start: '20260105T090000Z', end: '20260105T093000Z' });
const REVIEW = calendar({ uid: 'review@test', start: '20260106T140000Z', end: '20260106T150000Z' });

let server: CalendarServer;
let fetchers: HttpCalendarFetcher[] = [];

function fetcher(options: Partial<CalendarFetcherOptions> = {}): HttpCalendarFetcher {
  const made = new HttpCalendarFetcher({
    timeoutMs: 5_000,
    maxBytes: 1_048_576,
    allowPrivateTargets: true,
    ...options,
  });
  fetchers.push(made);
  return made;
}

const ics = (url: string) => ({ type: 'ics' as const, url });

function failure(outcome: FetchOutcome): string {
  if (outcome.kind !== 'failed') throw new Error(`expected a failure, got ${JSON.stringify(outcome).slice(0, 300)}`);
  return outcome.error;
}

/** The parts of an address that a failure's text must never show. */
function expectSecretFree(error: string, ...also: string[]): void {
  for (const part of ['secret-abc123', '/calendar/ical', '127.0.0.1', 'localhost', String(server.port), ...also]) {
    expect(error).not.toContain(part);
  }
}

beforeEach(async () => {
  server = await CalendarServer.start();
});

afterEach(async () => {
  await Promise.race([
    Promise.all(fetchers.map((f) => f.close())),
    new Promise((resolve) => setTimeout(resolve, 1_000)),
  ]);
  fetchers = [];
  await server.close();
});

describe('HttpCalendarFetcher: ICS addresses', () => {
  it('when the address answers 200, then the text comes back with a state holding its ETag and Last-Modified', async () => {
    server.serve('/cal.ics', { kind: 'calendar', body: STANDUP, etag: '"v1"' });
    const outcome = await fetcher().fetch(ics(server.url('/cal.ics')), null, WINDOW);
    expect(outcome).toMatchObject({ kind: 'changed', calendars: [STANDUP] });
    const state = JSON.parse((outcome as { state: string }).state);
    expect(state).toMatchObject({ etag: '"v1"', lastModified: DEFAULT_LAST_MODIFIED });
    expect(server.requests).toEqual([
      expect.objectContaining({ method: 'GET', path: '/cal.ics', ifNoneMatch: null, ifModifiedSince: null }),
    ]);
  });

  it('when it is read again with the state, then the request is conditional, the server answers 304 and the outcome is unchanged', async () => {
    server.serve('/cal.ics', { kind: 'calendar', body: STANDUP, etag: '"v1"' });
    const calendars = fetcher();
    const first = await calendars.fetch(ics(server.url('/cal.ics')), null, WINDOW);
    const second = await calendars.fetch(ics(server.url('/cal.ics')), (first as { state: string }).state, WINDOW);
    expect(second).toEqual({ kind: 'unchanged', state: (first as { state: string }).state });
    expect(server.requests[1]).toMatchObject({ ifNoneMatch: '"v1"', ifModifiedSince: DEFAULT_LAST_MODIFIED });
  });

  it('when the calendar changed at the source, then the conditional request gets the new text and a new state', async () => {
    server.serve('/cal.ics', { kind: 'calendar', body: STANDUP });
    const calendars = fetcher();
    const first = (await calendars.fetch(ics(server.url('/cal.ics')), null, WINDOW)) as { state: string };
    server.serve('/cal.ics', { kind: 'calendar', body: REVIEW, lastModified: 'Tue, 06 Jan 2026 08:00:00 GMT' });
    const second = await calendars.fetch(ics(server.url('/cal.ics')), first.state, WINDOW);
    expect(second).toMatchObject({ kind: 'changed', calendars: [REVIEW] });
    expect((second as { state: string }).state).not.toBe(first.state);
    expect(server.requests[1]!.ifNoneMatch).toBe(JSON.parse(first.state).etag);
  });

  it('when the server sends only Last-Modified, then If-Modified-Since alone brings the 304', async () => {
    server.serve('/cal.ics', { kind: 'calendar', body: STANDUP, etag: null });
    const calendars = fetcher();
    const first = (await calendars.fetch(ics(server.url('/cal.ics')), null, WINDOW)) as { state: string };
    const second = await calendars.fetch(ics(server.url('/cal.ics')), first.state, WINDOW);
    expect(second.kind).toBe('unchanged');
    expect(server.requests[1]).toMatchObject({ ifNoneMatch: null, ifModifiedSince: DEFAULT_LAST_MODIFIED });
  });

  it('when the server sends no validators and the same text again, then the outcome is unchanged (by its hash)', async () => {
    server.serve('/cal.ics', { kind: 'calendar', body: STANDUP, etag: null, lastModified: null });
    const calendars = fetcher();
    const first = (await calendars.fetch(ics(server.url('/cal.ics')), null, WINDOW)) as { state: string };
    expect(first).toMatchObject({ kind: 'changed' });
    const second = await calendars.fetch(ics(server.url('/cal.ics')), first.state, WINDOW);
    expect(second.kind).toBe('unchanged');
    expect(server.requests[1]).toMatchObject({ ifNoneMatch: null, ifModifiedSince: null });
    server.serve('/cal.ics', { kind: 'calendar', body: REVIEW, etag: null, lastModified: null });
    expect(await calendars.fetch(ics(server.url('/cal.ics')), first.state, WINDOW)).toMatchObject({
      kind: 'changed',
      calendars: [REVIEW],
    });
  });

  it('when the state is not one this fetcher wrote, then it is ignored and the calendar is read whole', async () => {
    server.serve('/cal.ics', { kind: 'calendar', body: STANDUP });
    for (const state of ['not json', '[]', '{"etag":"\\"x\\""}', 'null']) {
      const outcome = await fetcher().fetch(ics(server.url('/cal.ics')), state, WINDOW);
      expect(outcome).toMatchObject({ kind: 'changed', calendars: [STANDUP] });
    }
    expect(server.requests.every((request) => request.ifNoneMatch === null)).toBe(true);
  });

  it('when the body is gzipped, then the text comes back decompressed', async () => {
    server.serve('/cal.ics', { kind: 'calendar', body: STANDUP, gzip: true });
    expect(await fetcher().fetch(ics(server.url('/cal.ics')), null, WINDOW)).toMatchObject({
      kind: 'changed',
      calendars: [STANDUP],
    });
  });

  it('when the file starts with a byte-order mark and blank lines, then it is read as iCalendar from BEGIN on', async () => {
    server.serve('/cal.ics', { kind: 'calendar', body: `\uFEFF\r\n  \r\n${STANDUP}` });
    expect(await fetcher().fetch(ics(server.url('/cal.ics')), null, WINDOW)).toMatchObject({
      kind: 'changed',
      calendars: [STANDUP],
    });
  });

  it('when the address answers with redirects, then they are followed to the calendar', async () => {
    server
      .serve('/old.ics', { kind: 'redirect', to: '/moved.ics', status: 301 })
      .serve('/moved.ics', { kind: 'redirect', to: server.url('/cal.ics'), status: 307 })
      .serve('/cal.ics', { kind: 'calendar', body: STANDUP });
    const outcome = await fetcher().fetch(ics(server.url('/old.ics')), null, WINDOW);
    expect(outcome).toMatchObject({ kind: 'changed', calendars: [STANDUP] });
    expect(server.requests.map((request) => request.path)).toEqual(['/old.ics', '/moved.ics', '/cal.ics']);
  });

  it('when a redirect leads to another host, then it is followed, and credentials of the first stay behind', async () => {
    server
      .serve('/private.ics', { kind: 'redirect', to: server.localhostUrl('/cal.ics') })
      .serve('/cal.ics', { kind: 'calendar', body: STANDUP });
    const url = `http://bob:hunter2@127.0.0.1:${server.port}/private.ics`;
    const outcome = await fetcher().fetch(ics(url), null, WINDOW);
    expect(outcome).toMatchObject({ kind: 'changed', calendars: [STANDUP] });
    expect(server.requests[0]!.authorization).toBe(`Basic ${Buffer.from('bob:hunter2').toString('base64')}`);
    expect(server.requests[1]).toMatchObject({ host: `localhost:${server.port}`, authorization: null });
  });

  it('when redirects loop, then the fetch fails after five and says so', async () => {
    server.serve('/a.ics', { kind: 'redirect', to: '/b.ics' }).serve('/b.ics', { kind: 'redirect', to: '/a.ics' });
    const error = failure(await fetcher().fetch(ics(server.url('/a.ics')), null, WINDOW));
    expect(error).toBe('the calendar server redirected more than 5 times');
    expect(server.requests).toHaveLength(6);
  });

  it('when there are more redirects than maxRedirects, then the fetch fails without following the last', async () => {
    server
      .serve('/1.ics', { kind: 'redirect', to: '/2.ics' })
      .serve('/2.ics', { kind: 'redirect', to: '/3.ics' })
      .serve('/3.ics', { kind: 'redirect', to: '/cal.ics' })
      .serve('/cal.ics', { kind: 'calendar', body: STANDUP });
    const error = failure(await fetcher({ maxRedirects: 2 }).fetch(ics(server.url('/1.ics')), null, WINDOW));
    expect(error).toBe('the calendar server redirected more than 2 times');
    expect(server.requestsTo('/cal.ics')).toHaveLength(0);
  });

  it('when a redirect leads to something other than http or https, then the fetch fails', async () => {
    server.serve(SECRET_PATH, { kind: 'redirect', to: 'file:///etc/passwd' });
    const error = failure(await fetcher().fetch(ics(server.url(SECRET_PATH)), null, WINDOW));
    expect(error).toBe(CALENDAR_MESSAGES.redirectNotHttp);
    expectSecretFree(error);
  });

  it('when a redirect names an address that does not parse, then the fetch fails like a redirect to another scheme', async () => {
    server.serve(SECRET_PATH, { kind: 'redirect', to: 'http://[secret-abc123/cal.ics' });
    const error = failure(await fetcher().fetch(ics(server.url(SECRET_PATH)), null, WINDOW));
    expect(error).toBe(CALENDAR_MESSAGES.redirectNotHttp);
    expectSecretFree(error);
  });

  it('when the server never answers, then the fetch fails at the timeout, fast', { timeout: 10_000 }, async () => {
    server.serve(SECRET_PATH, { kind: 'hang' });
    const started = Date.now();
    const error = failure(await fetcher({ timeoutMs: 300 }).fetch(ics(server.url(SECRET_PATH)), null, WINDOW));
    const took = Date.now() - started;
    expect(error).toBe('the calendar server did not answer within 0.3 s');
    expect(took).toBeGreaterThanOrEqual(250);
    // Room for a loaded machine; without the timeout the fetch would never end.
    expect(took).toBeLessThan(3_000);
    expectSecretFree(error);
  });

  it('when the body trickles past the timeout, then the fetch fails at the timeout: the body counts', async () => {
    server.serve('/cal.ics', { kind: 'slow', body: STANDUP, chunkBytes: 8, intervalMs: 50 });
    const started = Date.now();
    const error = failure(await fetcher({ timeoutMs: 400 }).fetch(ics(server.url('/cal.ics')), null, WINDOW));
    expect(error).toBe('the calendar server did not answer within 0.4 s');
    // Room for a loaded machine; a body not counted would be read whole instead (and succeed).
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('when the body is larger than maxBytes, then it is cut there and the fetch fails', async () => {
    server.serve(SECRET_PATH, { kind: 'huge', bytes: 50 * 1_048_576 });
    const started = Date.now();
    const error = failure(await fetcher({ maxBytes: 262_144 }).fetch(ics(server.url(SECRET_PATH)), null, WINDOW));
    expect(error).toBe('the calendar is larger than 0.25 MB');
    expect(Date.now() - started).toBeLessThan(3_000);
    expectSecretFree(error);
  });

  it('when the body declares a length over maxBytes, then the fetch fails before reading it', async () => {
    server.serve('/cal.ics', { kind: 'huge', bytes: 5 * 1_048_576, declareLength: true });
    const error = failure(await fetcher({ maxBytes: 2 * 1_048_576 }).fetch(ics(server.url('/cal.ics')), null, WINDOW));
    expect(error).toBe('the calendar is larger than 2 MB');
  });

  it('when a small gzipped body inflates past maxBytes, then the decompressed size is what counts', async () => {
    const inflated = `${STANDUP}${' '.repeat(4 * 1_048_576)}`;
    expect(gzipSync(inflated).length).toBeLessThan(65_536);
    server.serve('/bomb.ics', { kind: 'calendar', body: inflated, gzip: true });
    const error = failure(await fetcher({ maxBytes: 1_048_576 }).fetch(ics(server.url('/bomb.ics')), null, WINDOW));
    expect(error).toBe('the calendar is larger than 1 MB');
  });

  it.each([
    ['a gzip body that is not gzip', 'gzip'],
    ['a coding it did not ask for', 'compress-x'],
  ])('when the server sends %s, then the fetch fails: the body could not be decompressed', async (_name, coding) => {
    server.serve(SECRET_PATH, { kind: 'status', status: 200, body: STANDUP, headers: { 'content-encoding': coding } });
    const error = failure(await fetcher().fetch(ics(server.url(SECRET_PATH)), null, WINDOW));
    expect(error).toBe(CALENDAR_MESSAGES.undecodable);
    expectSecretFree(error);
  });

  it.each([
    ['an HTML page', '<!doctype html><html><body>Sign in</body></html>'],
    ['JSON', '{"items":[]}'],
    ['bytes that are not text', Buffer.from([0x00, 0xff, 0x13, 0x37, 0x42, 0x45, 0x47])],
    ['an empty body', ''],
  ])('when the address returns %s, then the fetch fails: not an iCalendar file', async (_name, body) => {
    server.serve(SECRET_PATH, { kind: 'calendar', body, contentType: 'text/html' });
    const error = failure(await fetcher().fetch(ics(server.url(SECRET_PATH)), null, WINDOW));
    expect(error).toBe('the address did not return an iCalendar file');
    expectSecretFree(error);
  });

  it.each([
    [404, 'the calendar server answered 404 Not Found'],
    [500, 'the calendar server answered 500 Internal Server Error'],
    [401, 'the calendar server answered 401 Unauthorized'],
    [599, 'the calendar server answered 599'],
  ])('when the address answers %i, then the fetch fails with the status only', async (status, expected) => {
    server.serve(SECRET_PATH, {
      kind: 'status',
      status,
      body: `no calendar at ${server.url(SECRET_PATH)}`,
      headers: { 'x-path': SECRET_PATH },
    });
    const error = failure(await fetcher().fetch(ics(server.url(SECRET_PATH)), null, WINDOW));
    expect(error).toBe(expected);
    expectSecretFree(error);
  });

  it('when the server answers 304 to a request that was not conditional, then the fetch fails', async () => {
    server.serve('/cal.ics', { kind: 'status', status: 304 });
    expect(failure(await fetcher().fetch(ics(server.url('/cal.ics')), null, WINDOW))).toBe(
      'the calendar server answered 304 Not Modified',
    );
  });

  it('when credentials are in the address and the server refuses them, then the failure shows neither user nor password', async () => {
    server.serve('/private.ics', { kind: 'status', status: 401, headers: { 'www-authenticate': 'Basic realm="x"' } });
    const url = `http://bob:hunter2@127.0.0.1:${server.port}/private.ics`;
    const error = failure(await fetcher().fetch(ics(url), null, WINDOW));
    expect(error).toBe('the calendar server answered 401 Unauthorized');
    expectSecretFree(error, 'bob', 'hunter2');
    expect(server.requests[0]!.authorization).toBe(`Basic ${Buffer.from('bob:hunter2').toString('base64')}`);
  });

  it('when nothing listens at the address, then the fetch fails: the connection was refused', async () => {
    const port = server.port;
    await server.close();
    server = await CalendarServer.start();
    const error = failure(await fetcher().fetch(ics(`http://127.0.0.1:${port}${SECRET_PATH}`), null, WINDOW));
    expect(error).toBe(CALENDAR_MESSAGES.connectionRefused);
    expectSecretFree(error, String(port));
  });

  it('when the host name does not resolve, then the fetch fails without naming it', async () => {
    const error = failure(
      await fetcher().fetch(ics('https://secret-abc123.invalid/calendar/ical/secret-abc123/basic.ics'), null, WINDOW),
    );
    expect(error).toBe(CALENDAR_MESSAGES.unresolvable);
    expectSecretFree(error, '.invalid');
  });

  it.each([['not a url'], ['ftp://calendar.example.com/basic.ics'], ['mailto:someone@example.com']])(
    'when the address is %s, then the fetch fails: not an http or https address',
    async (url) => {
      expect(failure(await fetcher().fetch(ics(url), null, WINDOW))).toBe(CALENDAR_MESSAGES.invalidAddress);
    },
  );

  it('when the address is webcal://, then it is read as https (an http-only server sees no http request)', async () => {
    server.serve('/cal.ics', { kind: 'calendar', body: STANDUP });
    const outcome = await fetcher({ timeoutMs: 2_000 }).fetch(
      ics(`webcal://127.0.0.1:${server.port}/cal.ics`),
      null,
      WINDOW,
    );
    // TLS to a plain-HTTP port fails in the handshake: no GET /cal.ics was ever read as HTTP.
    expect(outcome.kind).toBe('failed');
    expect(failure(outcome)).not.toBe(CALENDAR_MESSAGES.invalidAddress);
    expect(server.requests).toHaveLength(0);
  });

  it('when the caller aborts (shutdown), then the fetch fails at once and says the sync was stopped', async () => {
    server.serve('/cal.ics', { kind: 'hang' });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    const started = Date.now();
    const error = failure(await fetcher().fetch(ics(server.url('/cal.ics')), null, WINDOW, stop.signal));
    expect(error).toBe(CALENDAR_MESSAGES.stopped);
    // An abort not heard would wait for the fetcher's 5 s timeout; a loaded run's takes a fraction of a second.
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe('HttpCalendarFetcher: the address guard', () => {
  it.each([['127.0.0.1'], ['localhost'], ['[::ffff:127.0.0.1]'], ['2130706433'], ['[::1]']])(
    'when private targets are not allowed and the host is %s, then the fetch is refused and nothing is sent',
    async (host) => {
      server.serve(SECRET_PATH, { kind: 'calendar', body: STANDUP });
      const url = `http://${host}:${server.port}${SECRET_PATH}`;
      const error = failure(await fetcher({ allowPrivateTargets: false }).fetch(ics(url), null, WINDOW));
      expect(error).toBe('refused to connect to a non-public address');
      expectSecretFree(error, '::1', '::ffff', '2130706433');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(server.requests).toHaveLength(0);
    },
  );

  it('when private targets are not allowed and a public host redirects to a loopback address, then the redirect is refused', async () => {
    // 127.0.0.1 plays a public host here (the policy lets it through); 127.0.0.2 is loopback as usual.
    const inner = await CalendarServer.startOn('127.0.0.2');
    try {
      inner.serve('/cal.ics', { kind: 'calendar', body: STANDUP });
      server.serve(SECRET_PATH, { kind: 'redirect', to: `http://127.0.0.2:${inner.port}/cal.ics` });
      const guarded = fetcher({
        allowPrivateTargets: false,
        forbiddenAddress: (address) => address !== '127.0.0.1' && isForbiddenAddress(address),
      });
      const error = failure(await guarded.fetch(ics(server.url(SECRET_PATH)), null, WINDOW));
      expect(error).toBe('refused to connect to a non-public address');
      expectSecretFree(error, '127.0.0.2', String(inner.port));
      expect(server.requests).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(inner.requests).toHaveLength(0);
    } finally {
      await inner.close();
    }
  });

  it('when private targets are not allowed and a public host redirects to a name resolving to loopback, then the redirect is refused', async () => {
    // localhost resolves to 127.0.0.1 (and maybe ::1); the policy lets 127.0.0.1 through only as a literal.
    let lookedUp = false;
    const guarded = fetcher({
      allowPrivateTargets: false,
      forbiddenAddress: (address) => {
        if (address !== '127.0.0.1') return isForbiddenAddress(address);
        // The first hop is a literal (checked before connecting, no lookup); any later call is the lookup of localhost.
        if (lookedUp) return true;
        lookedUp = true;
        return false;
      },
    });
    server
      .serve(SECRET_PATH, { kind: 'redirect', to: server.localhostUrl('/cal.ics') })
      .serve('/cal.ics', { kind: 'calendar', body: STANDUP });
    const error = failure(await guarded.fetch(ics(server.url(SECRET_PATH)), null, WINDOW));
    expect(error).toBe('refused to connect to a non-public address');
    expect(server.requestsTo('/cal.ics')).toHaveLength(0);
  });

  it('when private targets are allowed, then the same loopback address is read', async () => {
    server.serve('/cal.ics', { kind: 'calendar', body: STANDUP });
    expect(
      await fetcher({ allowPrivateTargets: true }).fetch(ics(server.localhostUrl('/cal.ics')), null, WINDOW),
    ).toMatchObject({ kind: 'changed', calendars: [STANDUP] });
  });
});

describe('HttpCalendarFetcher: CalDAV answers from a server that is not a good one', () => {
  const caldav = (url: string, password = 'secret') => ({
    type: 'caldav' as const,
    url,
    username: 'alice',
    password,
  });

  it('when the server answers 401, then the fetch fails: the user name or password was refused', async () => {
    server.serve('/dav/secret-abc123/', { kind: 'status', status: 401, headers: { 'www-authenticate': 'Basic' } });
    const error = failure(await fetcher().fetch(caldav(server.url('/dav/secret-abc123/'), 'pw-xyz'), null, WINDOW));
    expect(error).toBe('the CalDAV server refused the user name or password');
    expectSecretFree(error, 'alice', 'pw-xyz');
    expect(server.requests[0]).toMatchObject({
      method: 'PROPFIND',
      authorization: `Basic ${Buffer.from('alice:pw-xyz').toString('base64')}`,
    });
  });

  it('when the address answers PROPFIND with a web page, then the fetch fails: not a CalDAV calendar', async () => {
    server.serve('/dav/', { kind: 'calendar', body: '<html>hello</html>', contentType: 'text/html' });
    expect(failure(await fetcher().fetch(caldav(server.url('/dav/')), null, WINDOW))).toBe(CALENDAR_MESSAGES.notCalDav);
  });

  it('when the server answers with multistatus documents, then the objects with calendar data come back in href order', async () => {
    const path = '/dav/alice/work/';
    server.serve(path, {
      kind: 'dav',
      propfind: calendarPropfind(path, '17'),
      report: calendarReport([
        ['/dav/alice/work/review.ics', REVIEW],
        ['/dav/alice/work/standup.ics', STANDUP],
      ]),
    });
    const outcome = await fetcher().fetch(caldav(server.url(path)), null, WINDOW);
    expect(outcome).toMatchObject({ kind: 'changed', calendars: [REVIEW.trim(), STANDUP.trim()] });
    expect(JSON.parse((outcome as { state: string }).state)).toMatchObject({ ctag: '17', syncToken: null });
  });

  // Issue 25, finding 2: answers whose parse by tsdav took the event loop for seconds, and the caps.
  it('when the PROPFIND answer is larger than 64 KB (one <prop> with 16,000 children), then the fetch fails and says so', async () => {
    server.serve('/dav/secret-abc123/', { kind: 'dav', propfind: hostilePropfind('/dav/secret-abc123/', 16_000) });
    const error = failure(await fetcher().fetch(caldav(server.url('/dav/secret-abc123/'), 'pw-xyz'), null, WINDOW));
    expect(error).toBe("the CalDAV server's answer to PROPFIND is larger than 64 KB");
    expectSecretFree(error, 'alice', 'pw-xyz');
  });

  it('when the PROPFIND answer has more than 1,000 elements, then the fetch fails and says so', async () => {
    const path = '/dav/alice/work/';
    const others = Array.from({ length: 600 }, (_, i) => `<d:response><d:href>/dav/x${i}/</d:href></d:response>`);
    const propfind = calendarPropfind(path).replace('</d:multistatus>', `${others.join('')}</d:multistatus>`);
    expect(Buffer.byteLength(propfind)).toBeLessThan(64 * 1024);
    server.serve(path, { kind: 'dav', propfind });
    expect(failure(await fetcher().fetch(caldav(server.url(path)), null, WINDOW))).toBe(
      "the CalDAV server's answer has more than 1000 XML elements",
    );
  });

  it('when a REPORT answer has a response with 8,000 propstats, then the fetch fails and says so', async () => {
    const path = '/dav/alice/work/';
    server.serve(path, { kind: 'dav', propfind: calendarPropfind(path), report: hostileReport(8_000) });
    expect(failure(await fetcher().fetch(caldav(server.url(path)), null, WINDOW))).toBe(
      "the CalDAV server's answer has a response with more than 256 XML elements",
    );
  });

  it('when a REPORT answer has more than 200,000 elements, then the fetch fails and says so', async () => {
    const path = '/dav/alice/work/';
    const objects = Array.from({ length: 30_000 }, (_, i): [string, string] => [`/dav/alice/work/${i}.ics`, 'x']);
    server.serve(path, { kind: 'dav', propfind: calendarPropfind(path), report: calendarReport(objects) });
    expect(failure(await fetcher({ maxBytes: 10 * 1_048_576 }).fetch(caldav(server.url(path)), null, WINDOW))).toBe(
      "the CalDAV server's answer has more than 200000 XML elements",
    );
  });

  it('when the CalDAV server never answers, then the fetch fails at the timeout', { timeout: 5_000 }, async () => {
    server.serve('/dav/', { kind: 'hang' });
    expect(failure(await fetcher({ timeoutMs: 300 }).fetch(caldav(server.url('/dav/')), null, WINDOW))).toBe(
      'the calendar server did not answer within 0.3 s',
    );
  });
});

describe.skipIf(!radicaleGate('CalDAV tests against Radicale'))('HttpCalendarFetcher: CalDAV against Radicale', () => {
  let radicale: Radicale;
  let names = 0;

  beforeAll(async () => {
    radicale = await Radicale.start();
  });

  afterAll(async () => {
    await radicale?.stop();
  });

  const source = (url: string, password = radicale.password) => ({
    type: 'caldav' as const,
    url,
    username: radicale.user,
    password,
  });
  const newCalendar = () => radicale.createCalendar(`cal-${++names}`);
  const event = (uid: string, start: string, end: string, extra: Partial<{ summary: string; rrule: string }> = {}) =>
    calendar({ uid, start, end, ...extra });

  function changed(outcome: FetchOutcome): { calendars: string[]; state: string } {
    if (outcome.kind !== 'changed') throw new Error(`expected changed, got ${JSON.stringify(outcome)}`);
    return { calendars: outcome.calendars, state: outcome.state! };
  }

  it('when the calendar is empty, then the outcome is changed with no objects and a state holding its CTag and sync-token', async () => {
    const url = await newCalendar();
    const outcome = changed(await fetcher().fetch(source(url), null, WINDOW));
    expect(outcome.calendars).toEqual([]);
    const state = JSON.parse(outcome.state);
    expect(state.ctag).toMatch(/\S/);
    expect(state.syncToken).toMatch(/^http:\/\/radicale\.org\/ns\/sync\//);
  });

  it('when two events were put, then both come back; read again with the state, unchanged; one deleted, only the other', async () => {
    const url = await newCalendar();
    const calendars = fetcher();
    const empty = changed(await calendars.fetch(source(url), null, WINDOW));
    await radicale.putEvent(url, 'standup', event('standup@test', '20260105T090000Z', '20260105T093000Z'));
    await radicale.putEvent(url, 'review', event('review@test', '20260106T140000Z', '20260106T150000Z'));

    const both = changed(await calendars.fetch(source(url), empty.state, WINDOW));
    expect(both.calendars).toHaveLength(2);
    expect(both.calendars.map((text) => /UID:(\S+)/.exec(text)![1]).sort()).toEqual(['review@test', 'standup@test']);
    for (const text of both.calendars) expect(text).toMatch(/^BEGIN:VCALENDAR[\s\S]*BEGIN:VEVENT[\s\S]*END:VCALENDAR/);
    expect(JSON.parse(both.state).ctag).not.toBe(JSON.parse(empty.state).ctag);

    expect(await calendars.fetch(source(url), both.state, WINDOW)).toEqual({ kind: 'unchanged', state: both.state });

    await radicale.deleteEvent(url, 'standup');
    const one = changed(await calendars.fetch(source(url), both.state, WINDOW));
    expect(one.calendars).toHaveLength(1);
    expect(one.calendars[0]).toContain('UID:review@test');
    expect(one.calendars[0]).not.toContain('standup@test');
  });

  it('when an event is changed in place, then the new CTag is seen and the new text comes back', async () => {
    const url = await newCalendar();
    const calendars = fetcher();
    await radicale.putEvent(url, 'standup', event('standup@test', '20260105T090000Z', '20260105T093000Z'));
    const before = changed(await calendars.fetch(source(url), null, WINDOW));
    await radicale.putEvent(
      url,
      'standup',
      event('standup@test', '20260105T100000Z', '20260105T103000Z', { summary: 'Moved' }),
    );
    const after = changed(await calendars.fetch(source(url), before.state, WINDOW));
    expect(JSON.parse(after.state).ctag).not.toBe(JSON.parse(before.state).ctag);
    expect(after.calendars).toHaveLength(1);
    expect(after.calendars[0]).toContain('DTSTART:20260105T100000Z');
    expect(after.calendars[0]).toContain('SUMMARY:Moved');
  });

  it('when the CTag and sync-token are those of the state, then no objects are read: unchanged even with another hash', async () => {
    const url = await newCalendar();
    await radicale.putEvent(url, 'standup', event('standup@test', '20260105T090000Z', '20260105T093000Z'));
    const read = changed(await fetcher().fetch(source(url), null, WINDOW));
    const stale = JSON.stringify({ ...JSON.parse(read.state), sha256: 'not-the-hash' });
    expect(await fetcher().fetch(source(url), stale, WINDOW)).toEqual({ kind: 'unchanged', state: stale });
  });

  it('when events lie outside the window, then only those overlapping it come back (a weekly series from before it included)', async () => {
    const url = await newCalendar();
    await radicale.putEvent(url, 'inside', event('inside@test', '20260110T090000Z', '20260110T100000Z'));
    await radicale.putEvent(url, 'before', event('before@test', '20251101T090000Z', '20251101T100000Z'));
    await radicale.putEvent(url, 'after', event('after@test', '20260601T090000Z', '20260601T100000Z'));
    await radicale.putEvent(
      url,
      'weekly',
      event('weekly@test', '20251006T080000Z', '20251006T083000Z', { rrule: 'FREQ=WEEKLY;BYDAY=MO' }),
    );
    const outcome = changed(await fetcher().fetch(source(url), null, WINDOW));
    expect(outcome.calendars.map((text) => /UID:(\S+)/.exec(text)![1]).sort()).toEqual(['inside@test', 'weekly@test']);
  });

  it('when the password is wrong, then the fetch fails with the message and neither user name nor password', async () => {
    const url = await newCalendar();
    const error = failure(await fetcher().fetch(source(url, 'wrong-password-123'), null, WINDOW));
    expect(error).toBe('the CalDAV server refused the user name or password');
    for (const part of ['wrong-password-123', 'alice', '127.0.0.1', String(radicale.port), 'cal-']) {
      expect(error).not.toContain(part);
    }
  });

  it('when the calendar does not exist, then the fetch fails with 404', async () => {
    expect(failure(await fetcher().fetch(source(radicale.calendarUrl('missing')), null, WINDOW))).toBe(
      'the calendar server answered 404 Not Found',
    );
  });

  it('when the address is the user principal rather than a calendar, then the fetch fails: not a CalDAV calendar', async () => {
    await newCalendar();
    expect(failure(await fetcher().fetch(source(`${radicale.url}${radicale.user}/`), null, WINDOW))).toBe(
      CALENDAR_MESSAGES.notCalDav,
    );
  });

  it('when the calendar is larger than maxBytes, then the fetch fails', async () => {
    const url = await newCalendar();
    const description = 'x'.repeat(2_000);
    for (let i = 0; i < 10; i++) {
      await radicale.putEvent(
        url,
        `big-${i}`,
        calendar({ uid: `big-${i}@test`, start: '20260105T090000Z', end: '20260105T093000Z', summary: description }),
      );
    }
    expect(failure(await fetcher({ maxBytes: 16_384 }).fetch(source(url), null, WINDOW))).toBe(
      'the calendar is larger than 0.02 MB',
    );
    expect(changed(await fetcher({ maxBytes: 1_048_576 }).fetch(source(url), null, WINDOW)).calendars).toHaveLength(10);
  });

  it('when private targets are not allowed, then Radicale on 127.0.0.1 is refused', async () => {
    const url = await newCalendar();
    expect(failure(await fetcher({ allowPrivateTargets: false }).fetch(source(url), null, WINDOW))).toBe(
      'refused to connect to a non-public address',
    );
  });
});
