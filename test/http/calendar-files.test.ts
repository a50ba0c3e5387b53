// Contract §10's calendar files on both stores, read back with an independent strict parser
// (ical.js): a booking's `icsUrl` and the holder's `calendarFeedUrl` give the right instants,
// one event per appointment under one UID across reschedules (contract §16), cancellations as
// STATUS and moves as SEQUENCE; a link opens only what it was made for, and a rotated feed link
// opens nothing.
import ICAL from 'ical.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, book, createEventType, type BookingBody, type EventTypeBody } from './helpers.js';

let h: Harness;
let token: string;
let et: EventTypeBody;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  token = await h.key('alice');
  await h.request({ method: 'PATCH', url: '/api/v1/me', token, json: { displayName: 'Alice Example' } });
  et = await createEventType(h, token, { title: 'Intro call', durationMinutes: 30 });
});

afterEach(async () => {
  await h.close();
});

const fetchPath = (url: string) => h.request({ method: 'GET', url: new URL(url).pathname });

interface ParsedEvent {
  uid: string;
  start: string;
  end: string;
  status: string;
  sequence: number;
  summary: string;
  description: string | null;
  attendee: string;
  /** The ATTENDEE's parameters as read (lower-case names): its CN, and nothing a name slipped in. */
  attendeeParameters: Record<string, unknown>;
}

/** Parses with ical.js (which throws on what is not iCalendar) and returns the VEVENTs. */
function parse(text: string): ParsedEvent[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  expect(calendar.name).toBe('vcalendar');
  expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
  return calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      status: String(vevent.getFirstPropertyValue('status')),
      sequence: event.sequence,
      summary: event.summary,
      description: event.description ?? null,
      attendee: String(vevent.getFirstPropertyValue('attendee')).toLowerCase(),
      attendeeParameters:
        (vevent.getFirstProperty('attendee')?.toJSON() as [string, Record<string, unknown>])?.[1] ?? {},
    };
  });
}

async function feedUrl(): Promise<string> {
  const me = await h.request({ method: 'GET', url: '/api/v1/me', token });
  return me.json<{ holder: { calendarFeedUrl: string } }>().holder.calendarFeedUrl;
}

describe('icsUrl: one booking for the guest', () => {
  it('when fetched, then it is iCalendar with the booking’s instants, its id as UID and CONFIRMED, and cancelled after a cancel', async () => {
    const booking = await book(h, token, et.id, '2026-01-05T10:00:00+01:00');
    const res = await fetchPath(booking.icsUrl!);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="booking.ics"');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(parse(res.body)).toEqual([
      {
        uid: `${booking.id}@slotwise`,
        start: '2026-01-05T09:00:00.000Z',
        end: '2026-01-05T09:30:00.000Z',
        status: 'CONFIRMED',
        sequence: 0,
        summary: 'Intro call with Alice Example',
        description: null,
        attendee: 'mailto:ada@example.com',
        attendeeParameters: { cn: 'Ada Lovelace', role: 'REQ-PARTICIPANT' },
      },
    ]);

    await h.request({ method: 'POST', url: `/api/v1/bookings/${booking.id}/cancel`, token });
    const [cancelled] = parse((await fetchPath(booking.icsUrl!)).body);
    expect(cancelled).toMatchObject({ uid: `${booking.id}@slotwise`, status: 'CANCELLED', sequence: 1 });
  });

  it('when the booking is rescheduled twice and then cancelled, then its first link and its latest one show the one appointment: the first booking’s UID, at its latest time, SEQUENCE counting the moves and one more for the cancellation', async () => {
    const first = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const reschedule = async (id: string, start: string) => {
      const res = await h.request({ method: 'POST', url: `/api/v1/bookings/${id}/reschedule`, token, json: { start } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<BookingBody>();
    };
    const second = await reschedule(first.id, '2026-01-05T10:00:00Z');
    const third = await reschedule(second.id, '2026-01-05T11:00:00Z');
    const shown = async (booking: BookingBody) => {
      const res = await fetchPath(booking.icsUrl!);
      expect(res.statusCode, res.body).toBe(200);
      return parse(res.body).map((e) => [e.uid, e.start, e.status, e.sequence]);
    };
    const moved = [[`${first.id}@slotwise`, '2026-01-05T11:00:00.000Z', 'CONFIRMED', 2]];
    for (const booking of [first, second, third]) expect(await shown(booking), booking.id).toEqual(moved);

    await h.request({ method: 'POST', url: `/api/v1/bookings/${third.id}/cancel`, token });
    const cancelled = [[`${first.id}@slotwise`, '2026-01-05T11:00:00.000Z', 'CANCELLED', 3]];
    for (const booking of [first, second, third]) expect(await shown(booking), booking.id).toEqual(cancelled);
  });

  it('when the link is altered, or is another purpose’s link, then 404 and nothing is shown', async () => {
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const path = new URL(booking.icsUrl!).pathname;
    const manageToken = new URL(booking.manageUrl!).pathname.split('/manage/')[1]!;
    const other = await book(h, token, et.id, '2026-01-05T10:00:00Z');
    for (const forged of [
      // One character of the MAC changed (not the last: base64url's last character of 32 bytes
      // carries padding bits, so some changes to it decode to the same bytes).
      alterAt(path, path.length - 14),
      `/ics/${manageToken}.ics`,
      path.replace(booking.id, other.id),
      path.replace(/\.ics$/, ''),
      '/ics/.ics',
    ]) {
      const res = await h.request({ method: 'GET', url: forged });
      expect(res.statusCode, forged).toBe(404);
      expect(res.body).toBe('Not found\n');
    }
  });
});

describe('calendarFeedUrl: the holder’s bookings for a calendar app', () => {
  it('when fetched, then it lists every appointment once, a cancelled one as CANCELLED and a moved one at its new time under its first UID, and no holds or other holders’ bookings', async () => {
    const kept = await book(h, token, et.id, '2026-01-05T09:00:00Z', {
      guestName: 'Ada; "Countess", of Lovelace',
      notes: 'Bring the engine,\nplease; \\ "both"',
      answers: {},
    });
    const cancelled = await book(h, token, et.id, '2026-01-05T10:00:00Z');
    await h.request({ method: 'POST', url: `/api/v1/bookings/${cancelled.id}/cancel`, token });
    const moved = await book(h, token, et.id, '2026-01-05T11:00:00Z');
    const replacement = (
      await h.request({
        method: 'POST',
        url: `/api/v1/bookings/${moved.id}/reschedule`,
        token,
        json: { start: '2026-01-05T12:00:00Z' },
      })
    ).json<BookingBody>();
    await h.request({
      method: 'POST',
      url: '/api/v1/holds',
      token,
      json: { eventTypeId: et.id, start: '2026-01-05T13:00:00Z' },
    });
    const bob = await h.key('bob');
    const bobs = await createEventType(h, bob);
    await book(h, bob, bobs.id, '2026-01-05T09:00:00Z');

    const res = await fetchPath(await feedUrl());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, max-age=300');
    const events = parse(res.body);
    expect(replacement.rescheduledFromId).toBe(moved.id);
    expect(events.map((e) => [e.uid, e.status, e.sequence])).toEqual([
      [`${kept.id}@slotwise`, 'CONFIRMED', 0],
      [`${cancelled.id}@slotwise`, 'CANCELLED', 1],
      [`${moved.id}@slotwise`, 'CONFIRMED', 1],
    ]);
    // Text the holder's guests wrote survives the trip intact (escaped, folded, read back).
    expect(events[0]!.summary).toBe('Intro call: Ada; "Countess", of Lovelace');
    expect(events[0]!.attendeeParameters).toEqual({ cn: 'Ada; "Countess", of Lovelace', role: 'REQ-PARTICIPANT' });
    expect(events[0]!.description).toBe('Bring the engine,\nplease; \\ "both"');
    expect(events[2]!.start).toBe('2026-01-05T12:00:00.000Z');
  });

  it('when the feed link is rotated, then the old link opens nothing and the new one opens the feed', async () => {
    const before = await feedUrl();
    expect((await fetchPath(before)).statusCode).toBe(200);
    await h.request({ method: 'POST', url: '/api/v1/me/calendar-feed/rotate', token });
    const after = await feedUrl();
    expect((await fetchPath(before)).statusCode).toBe(404);
    expect((await fetchPath(after)).statusCode).toBe(200);
  });

  it('when the link is forged, then 404', async () => {
    const path = new URL(await feedUrl()).pathname;
    const bob = await h.key('bob');
    const bobsHolder = (await h.request({ method: 'GET', url: '/api/v1/me', token: bob })).json<{
      holder: { id: string };
    }>().holder.id;
    const [, , holderId] = path.split(/[/.]/);
    for (const forged of [path.replace(holderId!, bobsHolder), path.replace('.0.', '.1.'), '/feeds/x.ics']) {
      expect((await h.request({ method: 'GET', url: forged })).statusCode, forged).toBe(404);
    }
  });
});

describe('names in calendar files', () => {
  // A parameter value cannot hold `"` (RFC 5545 §3.2): RFC 6868 writes it as ^'. Written as `\"`,
  // the quote ended the value, and what followed became parameters or the address.
  const hostileNames = [
    'Ada "Countess" Lovelace',
    'Lovelace; Ada',
    'Ada: the Countess',
    'Lovelace, Ada',
    'x";ROLE=CHAIR',
    'x":mailto:evil@example.com',
    'x\\";=y',
    "caret ^ and ^' and ^n and back\\slash",
  ];

  it('when guest names hold quotes, ; : , or a parameter or address to inject, then the .ics and the feed name the guest exactly, at the guest’s address', async () => {
    const bookings = [];
    for (const [index, guestName] of hostileNames.entries()) {
      const start = new Date(Date.parse('2026-01-05T09:00:00Z') + index * 3_600_000).toISOString();
      bookings.push(await book(h, token, et.id, start, { guestName, guestEmail: 'ada@example.com' }));
    }
    const expected = (guestName: string) => ({
      attendee: 'mailto:ada@example.com',
      // A parameter has no writing for a backslash that readers agree on: the CN leaves it out.
      attendeeParameters: { cn: guestName.replaceAll('\\', ''), role: 'REQ-PARTICIPANT' },
    });
    for (const [index, booking] of bookings.entries()) {
      const res = await fetchPath(booking.icsUrl!);
      expect(res.statusCode).toBe(200);
      const [event, ...others] = parse(res.body);
      expect(others).toEqual([]);
      expect(event, res.body).toMatchObject(expected(hostileNames[index]!));
    }
    const feed = await fetchPath(await feedUrl());
    const events = parse(feed.body);
    expect(events.map((e) => e.uid)).toEqual(bookings.map((b) => `${b.id}@slotwise`));
    expect(events).toEqual(
      hostileNames.map((guestName) =>
        expect.objectContaining({ ...expected(guestName), summary: `Intro call: ${guestName}` }),
      ),
    );
  });

  it('when a display name stored before names were checked holds line breaks, then the feed has only the bookings’ VEVENTs and the name escaped', async () => {
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const injected =
      'Alice\r\nBEGIN:VEVENT\r\nUID:injected@example.com\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260105T100000Z\r\n' +
      'SUMMARY:Injected\r\nEND:VEVENT\r\nX-AFTER:\u0007\u001b[31m';
    const profile = (await h.request({ method: 'GET', url: '/api/v1/me', token })).json<{
      holder: { id: string; handle: string };
    }>().holder;
    // Straight to the store: the API refuses such a name now, but one may be stored from before.
    await h.store.transaction((tx) =>
      tx.holders.updateProfile(profile.id, { handle: profile.handle, displayName: injected }),
    );

    const res = await fetchPath(await feedUrl());
    expect(res.statusCode).toBe(200);
    expect(parse(res.body).map((e) => e.uid)).toEqual([`${booking.id}@slotwise`]);
    const calendar = new ICAL.Component(ICAL.parse(res.body));
    // ical.js keeps properties it does not know (NAME, X-WR-CALNAME) as written: read them as TEXT.
    const shown = injected.replace(/\r\n/g, '\n').replace(/[\u0007\u001b]/g, '');
    for (const property of ['name', 'x-wr-calname'])
      expect(readText(calendar.getFirstPropertyValue(property)), property).toBe(`${shown} (Slotwise)`);

    const guestFile = parse((await fetchPath(booking.icsUrl!)).body);
    expect(guestFile.map((e) => [e.uid, e.summary])).toEqual([[`${booking.id}@slotwise`, `Intro call with ${shown}`]]);
  });
});

/** A TEXT value as RFC 5545 §3.3.11 reads it, by ical.js's own decoder. */
function readText(raw: unknown): string {
  return ICAL.design.icalendar.value['text']!.fromICAL!(String(raw)) as string;
}

/** `text` with the character at `index` replaced by another one. */
function alterAt(text: string, index: number): string {
  return text.slice(0, index) + (text[index] === 'A' ? 'B' : 'A') + text.slice(index + 1);
}

describe('capability links open only in their exact form', () => {
  /** The MAC's part of a token: what follows its last dot. */
  const macOf = (token: string) => token.slice(token.lastIndexOf('.') + 1);
  /** A token whose MAC has a `-` or `_`, so that its `+/` spelling differs from it. */
  const spellsDifferently = (token: string) => /[-_]/.test(macOf(token));

  /** Each way a lenient base64url decoder reads back the same MAC, applied to `token`. */
  function alterations(token: string): Record<string, string> {
    const mac = macOf(token);
    const id = token.slice(0, token.length - mac.length);
    const half = mac.length >> 1;
    return {
      padded: `${token}=`,
      'standard alphabet': id + mac.replaceAll('-', '+').replaceAll('_', '/'),
      'a "!" inside': `${id}${mac.slice(0, half)}!${mac.slice(half)}`,
      'a space inside': `${id}${mac.slice(0, half)} ${mac.slice(half)}`,
      'a space after': `${token} `,
    };
  }

  it('when a manage, confirmation, .ics or feed token is padded, spelt with + and /, or has a "!" or a space added, then 404; the token as made opens', async () => {
    const bookings: BookingBody[] = [];
    for (let slot = 0; slot < 12; slot++) {
      bookings.push(await book(h, token, et.id, Date.parse('2026-01-05T09:00:00Z') + slot * 30 * 60_000));
    }
    const tokenIn = (url: string, prefix: string) => new URL(url).pathname.slice(prefix.length).replace(/\.ics$/, '');
    const manage = bookings.map((b) => tokenIn(b.manageUrl!, '/manage/')).find(spellsDifferently)!;
    const ics = bookings.map((b) => tokenIn(b.icsUrl!, '/ics/')).find(spellsDifferently)!;
    let confirmation = '';
    for (let hour = 1; !spellsDifferently(confirmation); hour++) {
      confirmation = h.context.links.confirmation(bookings[0]!.id, Date.parse(BEFORE_MONDAY) + hour * 3_600_000);
    }
    let feed = tokenIn(await feedUrl(), '/feeds/');
    while (!spellsDifferently(feed)) {
      await h.request({ method: 'POST', url: '/api/v1/me/calendar-feed/rotate', token });
      feed = tokenIn(await feedUrl(), '/feeds/');
    }
    const links = {
      manage: (t: string) => `/manage/${encodeURIComponent(t)}`,
      confirmation: (t: string) => `/book/alice/intro-call/booked/${encodeURIComponent(t)}`,
      ics: (t: string) => `/ics/${encodeURIComponent(t)}.ics`,
      feed: (t: string) => `/feeds/${encodeURIComponent(t)}.ics`,
    };
    const opened: string[] = [];
    for (const [kind, made] of [
      ['manage', manage],
      ['confirmation', confirmation],
      ['ics', ics],
      ['feed', feed],
    ] as const) {
      const url = links[kind];
      expect((await h.request({ method: 'GET', url: url(made) })).statusCode, `${kind} as made`).toBe(200);
      for (const [how, altered] of Object.entries(alterations(made))) {
        expect(altered).not.toBe(made);
        const res = await h.request({ method: 'GET', url: url(altered) });
        if (res.statusCode !== 404) opened.push(`${kind}, ${how}: ${res.statusCode}`);
      }
    }
    expect(opened).toEqual([]);
  });
});

describe('PUBLIC_FILE_RATE_LIMIT_PER_MINUTE: a bound per link', () => {
  it('when one link is fetched more often in a minute than allowed, from any number of addresses, then 429 with Retry-After; other links, forged ones and that link the next minute are not held back', async () => {
    await h.close();
    h = await createHarness({ now: BEFORE_MONDAY, fileRequestsPerMinute: 3 });
    token = await h.key('alice');
    et = await createEventType(h, token, { title: 'Intro call', durationMinutes: 30 });
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const feed = new URL(await feedUrl()).pathname;
    const ics = new URL(booking.icsUrl!).pathname;
    const from = (url: string, remoteAddress: string) => h.request({ method: 'GET', url, remoteAddress });
    // Calendar apps poll from a few shared addresses (Google's, Apple's): the count is the link's.
    for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      expect((await from(feed, address)).statusCode).toBe(200);
    }
    const refused = await from(feed, '198.51.100.4');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(refused.headers['referrer-policy']).toBe('no-referrer');
    for (let i = 0; i < 3; i++) expect((await from(ics, '198.51.100.4')).statusCode).toBe(200);
    expect((await from(ics, '198.51.100.4')).statusCode).toBe(429);
    // A link that opens nothing is not counted (and cannot push a real one over its bound).
    for (let i = 0; i < 5; i++) expect((await from(feed.replace('.0.', '.7.'), '198.51.100.4')).statusCode).toBe(404);
    h.clock.current += 60_000;
    expect((await from(feed, '198.51.100.4')).statusCode).toBe(200);
  });
});

describe('the feed’s caching', () => {
  it('when a calendar app polls an unchanged feed, then it is 304 to its If-None-Match and its bookings are not read again; a booking, a new name or the next day make a new ETag', async () => {
    await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const path = new URL(await feedUrl()).pathname;
    const fetchFeed = (etag?: string) =>
      h.request({ method: 'GET', url: path, headers: etag ? { 'if-none-match': etag } : {} });
    let sent = h.storage.queriesSent();
    const first = await fetchFeed();
    const firstQueries = h.storage.queriesSent() - sent;
    expect(first.statusCode).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{16,}"$/);
    expect(first.headers['cache-control']).toBe('private, max-age=300');

    sent = h.storage.queriesSent();
    const again = await fetchFeed();
    expect(h.storage.queriesSent() - sent).toBeLessThan(firstQueries);
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(etag);

    const notModified = await fetchFeed(`W/"other", ${etag}`);
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers.etag).toBe(etag);
    expect(notModified.headers['cache-control']).toBe('private, max-age=300');

    const tags = new Set([etag]);
    const changes: Array<[string, () => Promise<unknown>, (body: string) => void]> = [
      ['a booking', () => book(h, token, et.id, '2026-01-05T10:00:00Z'), (body) => expect(parse(body)).toHaveLength(2)],
      [
        'a new display name',
        () => h.request({ method: 'PATCH', url: '/api/v1/me', token, json: { displayName: 'Alice Renamed' } }),
        (body) => expect(body).toContain('Alice Renamed'),
      ],
      ['the next day', async () => (h.clock.current += 86_400_000), (body) => expect(parse(body)).toHaveLength(2)],
    ];
    for (const [change, make, check] of changes) {
      const before = String((await fetchFeed()).headers.etag);
      await make();
      const res = await fetchFeed(before);
      expect(res.statusCode, change).toBe(200);
      check(res.body);
      tags.add(String(res.headers.etag));
      expect(tags.size, change).toBe(changes.findIndex(([c]) => c === change) + 2);
    }
  });
});
