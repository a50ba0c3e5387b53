// Contract §16, locations, on both stores: an event type (personal or team) says where its
// meetings take place; a booking copies it when made or moved and keeps it through later edits;
// webhook bodies, booking pages, the manage page and calendar files show it.
import ICAL from 'ical.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { createHarness, type Harness } from '../support/harness.js';
import { Browser, hiddenFields, timeForms } from './page-browser.js';
import {
  BEFORE_MONDAY,
  bookingInput,
  createEventType,
  expectInvalid,
  type BookingBody,
  type EventTypeBody,
} from './helpers.js';

type Location = NonNullable<BookingBody['location']>;

let h: Harness;
let key: string;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  key = (await createApiKey(h.context, { accountName: 'acme', holderName: 'ada', scopes: ['*'], expiresAt: null }))
    .token;
});

afterEach(async () => {
  await h.close();
});

function call(method: 'GET' | 'POST' | 'PATCH', url: string, json?: unknown, token = key) {
  return h.request({ method, url: `/api/v1${url}`, token, ...(json === undefined ? {} : { json }) });
}

const MONDAY_10 = '2026-01-05T10:00:00.000Z';
const MONDAY_11 = '2026-01-05T11:00:00.000Z';
const VIDEO: Location = { type: 'link', value: 'https://meet.example.com/ada-intro' };
const OFFICE: Location = { type: 'address', value: 'Hauptstraße 1, 10827 Berlin' };

async function booked(json: unknown, token = key): Promise<BookingBody> {
  const res = await call('POST', '/bookings', json, token);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<BookingBody>();
}

describe('locations on event types', () => {
  it('when an event type is made or changed with a location of each type, then it shows it; without one, location is null', async () => {
    expect((await createEventType(h, key)).location).toBeNull();
    for (const location of [
      VIDEO,
      OFFICE,
      { type: 'phone', value: '+49 30 1234567' },
      { type: 'text', value: 'We call you' },
    ]) {
      const made = await createEventType(h, key, { location });
      expect(made.location).toEqual(location);
      const read = await call('GET', `/event-types/${made.id}`);
      expect(read.json<EventTypeBody>().location).toEqual(location);
    }
    const type = await createEventType(h, key, { location: OFFICE });
    expect((await call('PATCH', `/event-types/${type.id}`, { location: VIDEO })).json()).toMatchObject({
      location: VIDEO,
    });
    expect((await call('PATCH', `/event-types/${type.id}`, { title: 'Renamed' })).json()).toMatchObject({
      location: VIDEO,
    });
    expect((await call('PATCH', `/event-types/${type.id}`, { location: null })).json()).toMatchObject({
      location: null,
    });
  });

  it('when a link is not an absolute https URL, then 400 on location.value and nothing changes; a bad type or length is a 400 on location', async () => {
    for (const value of [
      'http://meet.example.com/x',
      'meet.example.com/x',
      '/relative',
      'javascript:alert(1)',
      'https://meet.example.com/x\r\nX: y',
      'https://',
    ])
      expectInvalid(
        await call('POST', '/event-types', { title: 'Call', durationMinutes: 30, location: { type: 'link', value } }),
        ['location.value'],
      );
    const type = await createEventType(h, key, { location: OFFICE });
    expectInvalid(
      await call('PATCH', `/event-types/${type.id}`, { location: { type: 'link', value: 'ftp://x.example' } }),
      ['location.value'],
    );
    expect((await call('GET', `/event-types/${type.id}`)).json()).toMatchObject({ location: OFFICE });
    for (const location of [
      { type: 'link', value: '' },
      { type: 'address', value: 'x'.repeat(501) },
      { type: 'room', value: 'B1' },
      { type: 'text' },
      'Berlin',
    ]) {
      const res = await call('POST', '/event-types', { title: 'Call', durationMinutes: 30, location });
      expect(res.statusCode, JSON.stringify(location)).toBe(400);
      expect(res.json<{ errors: Array<{ field: string }> }>().errors.map((e) => e.field.split('.')[0])).toContain(
        'location',
      );
    }
    expect((await createEventType(h, key, { location: { type: 'address', value: 'x'.repeat(500) } })).id).toBeTruthy();
  });

  it('when a team event type has a location, then its bookings copy it', async () => {
    const account = (
      await createApiKey(h.context, { accountName: 'acme', holderName: null, scopes: ['*'], expiresAt: null })
    ).token;
    const hosts: string[] = [];
    for (const name of ['bob', 'cy'])
      hosts.push(
        (await createApiKey(h.context, { accountName: 'acme', holderName: name, scopes: ['*'], expiresAt: null })).key
          .holderId!,
      );
    const made = await call(
      'POST',
      '/event-types',
      {
        title: 'Demo',
        durationMinutes: 30,
        assignment: 'round-robin',
        hosts: hosts.map((holderId) => ({ holderId })),
        location: VIDEO,
      },
      account,
    );
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ location: VIDEO });
    const booking = await booked(bookingInput(made.json<{ id: string }>().id, MONDAY_10), account);
    expect(booking.location).toEqual(VIDEO);
  });
});

describe('locations on bookings', () => {
  it('when a booking is made, then it copies the location; a later edit of the event type leaves it; a move takes the location as it is then', async () => {
    const type = await createEventType(h, key, { location: OFFICE });
    const first = await booked(bookingInput(type.id, MONDAY_10));
    expect(first.location).toEqual(OFFICE);
    await call('PATCH', `/event-types/${type.id}`, { location: VIDEO });
    expect((await call('GET', `/bookings/${first.id}`)).json()).toMatchObject({ location: OFFICE });
    const moved = await call('POST', `/bookings/${first.id}/reschedule`, { start: MONDAY_11 });
    expect(moved.statusCode, moved.body).toBe(201);
    const replacement = moved.json<BookingBody>();
    expect(replacement.location).toEqual(VIDEO);
    expect((await call('GET', `/bookings/${first.id}`)).json()).toMatchObject({ location: OFFICE });
    const list = await call('GET', '/bookings?from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z');
    expect(list.json<{ data: BookingBody[] }>().data.map((b) => b.location)).toEqual([VIDEO]);
  });

  it('when a booking of a type without a location is made, then its location is null', async () => {
    const type = await createEventType(h, key);
    expect((await booked(bookingInput(type.id, MONDAY_10))).location).toBeNull();
  });

  it('when a location is sent with a booking, then it is a 400: a booking only copies its event type’s', async () => {
    const type = await createEventType(h, key, { location: OFFICE });
    const res = await call('POST', '/bookings', { ...bookingInput(type.id, MONDAY_10), location: VIDEO });
    expect(res.statusCode).toBe(400);
  });

  it('when a booking with a location is made, moved and cancelled, then each webhook body carries it', async () => {
    const hook = await call('POST', '/webhooks', { url: 'https://hooks.example.com/in' });
    expect(hook.statusCode, hook.body).toBe(201);
    const type = await createEventType(h, key, { location: VIDEO });
    const first = await booked(bookingInput(type.id, MONDAY_10));
    const moved = (await call('POST', `/bookings/${first.id}/reschedule`, { start: MONDAY_11 })).json<BookingBody>();
    await call('POST', `/bookings/${moved.id}/cancel`, {});
    const bodies = (await h.database.rows('webhook_events'))
      .map((row) => JSON.parse(String(row.payload)) as { type: string; data: Record<string, { location?: unknown }> })
      .sort((a, b) => a.type.localeCompare(b.type));
    expect(bodies.map((body) => [body.type, body.data.booking!.location, body.data.previousBooking?.location])).toEqual(
      [
        ['booking.cancelled', VIDEO, undefined],
        ['booking.created', VIDEO, undefined],
        ['booking.rescheduled', VIDEO, VIDEO],
      ],
    );
  });
});

describe('locations on pages and in calendar files', () => {
  const PAGE = '/book/ada/intro';
  const HOSTILE = '<script>alert(1)</script> Room "B"\r\nLOCATION:elsewhere';

  it('when a public type has a link, then its page, the details form and the manage page show it as a link; a hostile text location stays text', async () => {
    await createEventType(h, key, { title: 'Intro', slug: 'intro', public: true, location: VIDEO });
    const browser = new Browser(h);
    const page = await browser.get(`${PAGE}?date=2026-01-05&tz=UTC`);
    expect(page.body).toContain(
      `<a href="${VIDEO.value}" target="_blank" rel="noopener noreferrer">${VIDEO.value}</a>`,
    );
    const picked = await browser.post(`${PAGE}/hold`, timeForms(page.body).get(MONDAY_10)!);
    const form = await browser.get(String(picked.headers.location));
    expect(form.body).toContain(`href="${VIDEO.value}"`);
    const made = await browser.post(`${PAGE}/book`, {
      ...hiddenFields(form.body),
      name: 'Grace',
      email: 'g@example.com',
    });
    expect(made.statusCode, made.body).toBe(303);
    const manage = await browser.get(String(made.headers.location));
    expect(manage.body).toMatch(/<dt>Where<\/dt><dd><a href="https:\/\/meet\.example\.com\/ada-intro"/);
    const german = await new Browser(h).get(`${String(made.headers.location).split('?')[0]}?lang=de`);
    expect(german.body).toContain('<dt>Wo</dt>');

    await call(
      'PATCH',
      `/event-types/${(await call('GET', '/event-types')).json<{ data: Array<{ id: string }> }>().data[0]!.id}`,
      {
        location: { type: 'text', value: HOSTILE },
      },
    );
    const hostile = await new Browser(h).get(`${PAGE}?date=2026-01-05&tz=UTC`);
    expect(hostile.body).not.toContain('<script>alert');
    expect(hostile.body).toContain('&lt;script>alert(1)&lt;/script> Room &quot;B&quot;');
  });

  it('when a booking has a location, then its .ics and the holder’s feed carry LOCATION (and URL for a link), a hostile one as one escaped value', async () => {
    const video = await createEventType(h, key, { location: VIDEO });
    const text = await createEventType(h, key, { location: { type: 'text', value: HOSTILE } });
    const plain = await createEventType(h, key);
    const withLink = await booked(bookingInput(video.id, MONDAY_10));
    const withText = await booked(bookingInput(text.id, MONDAY_11));
    const without = await booked(bookingInput(plain.id, '2026-01-05T12:00:00.000Z'));
    const eventsOf = async (url: string) => {
      const res = await h.request({ method: 'GET', url: new URL(url).pathname });
      expect(res.statusCode, res.body).toBe(200);
      return new Map(
        new ICAL.Component(ICAL.parse(res.body)).getAllSubcomponents('vevent').map((vevent) => [
          String(vevent.getFirstPropertyValue('uid')).replace('@slotwise', ''),
          {
            location: vevent.getFirstPropertyValue('location'),
            url: vevent.getFirstPropertyValue('url'),
            properties: vevent.getAllProperties().length,
          },
        ]),
      );
    };
    const own = await eventsOf(withLink.icsUrl!);
    expect(own.get(withLink.id)).toMatchObject({ location: VIDEO.value, url: VIDEO.value });
    const feedUrl = (await call('GET', '/me')).json<{ holder: { calendarFeedUrl: string } }>().holder.calendarFeedUrl;
    const feed = await eventsOf(feedUrl);
    expect(feed.get(withLink.id)).toMatchObject({ location: VIDEO.value, url: VIDEO.value });
    expect(feed.get(withText.id)).toMatchObject({ location: HOSTILE.replace('\r\n', '\n'), url: null });
    expect(feed.get(without.id)).toMatchObject({ location: null, url: null });
    // The hostile value's line break started no property of its own.
    expect(feed.get(withText.id)!.properties).toBe(feed.get(without.id)!.properties + 1);
  });
});
