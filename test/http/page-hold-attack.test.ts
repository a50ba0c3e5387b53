// Issue 25, finding 1: page holds are a convenience, never a gate (contract §9, §10). One client
// (an address, or an IPv6 /64) takes at most PUBLIC_HOLDS_PER_CLIENT of a holder's page holds,
// whatever sessions it makes; when no hold can be given, the guest still books a free time
// straight from the form; and the holder sees and releases its page holds by API.
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, createEventType, expectInvalid, type EventTypeBody } from './helpers.js';
import { Browser, hiddenFields, timeForms } from './page-browser.js';

const PAGE = '/book/alice/intro-call';

/** Opens Monday's page and picks `start` (UTC, as the page's forms carry it). */
async function pick(browser: Browser, start: string): Promise<LightMyRequestResponse> {
  const page = await browser.get(`${PAGE}?date=2026-01-05&tz=Europe/Berlin`);
  expect(page.statusCode, page.body).toBe(200);
  const form = timeForms(page.body).get(start);
  expect(form, `${start} is offered to ${browser.address}`).toBeDefined();
  return browser.post(`${PAGE}/hold`, form!);
}

/** Picks `start`, follows to the form and sends the guest's details; the answer to the last POST. */
async function book(browser: Browser, start: string, name: string): Promise<LightMyRequestResponse> {
  const picked = await pick(browser, start);
  expect(picked.statusCode, picked.body).toBe(303);
  const location = String(picked.headers.location);
  expect(location, 'the guest is asked for details').toContain('/details');
  const form = await browser.get(location);
  expect(form.statusCode, form.body).toBe(200);
  return browser.post(`${PAGE}/book`, { ...hiddenFields(form.body), name, email: 'guest@example.com' });
}

/** Monday 5 January's half-hour starts in Berlin's working day, as UTC instants. */
const MONDAY_STARTS = Array.from({ length: 16 }, (_, i) =>
  new Date(Date.UTC(2026, 0, 5, 9 + Math.floor(i / 2), (i % 2) * 30)).toISOString(),
);

let h: Harness;
let token: string;
let et: EventTypeBody;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY, pageHoldsPerHolder: 20, pageHoldsPerClient: 2 });
  token = await h.key('alice');
  et = await createEventType(h, token, { title: 'Intro call', durationMinutes: 30, public: true });
});

afterEach(async () => {
  await h.close();
});

async function confirmedCount(): Promise<number> {
  return (await h.database.rows('bookings')).filter((b) => b.status === 'confirmed').length;
}

describe('one client against a holder’s page holds', () => {
  it('when one address picks time after time in fresh sessions, then it holds at most PUBLIC_HOLDS_PER_CLIENT times, and a real guest still holds and books', async () => {
    const held: string[] = [];
    for (const start of MONDAY_STARTS.slice(0, 10)) {
      // A new session every time: no cookies kept from one pick to the next.
      const attacker = new Browser(h, '203.0.113.7');
      const res = await pick(attacker, start);
      expect(res.statusCode).toBe(303);
      if (String(res.headers.location).includes('hold=')) held.push(start);
    }
    expect(held).toHaveLength(2);
    const live = await h.request({ method: 'GET', url: '/api/v1/holds', token });
    expect(live.json<{ data: Array<{ source: string }> }>().data.map((hold) => hold.source)).toEqual(['page', 'page']);

    const guest = new Browser(h, '198.51.100.20');
    const booked = await book(guest, MONDAY_STARTS[12]!, 'Real Guest');
    expect(booked.statusCode, booked.body).toBe(303);
    expect(String(booked.headers.location)).toMatch(/^\/manage\//);
    expect(await confirmedCount()).toBe(1);
  });

  it('when the picks come from one IPv6 /64, then its addresses count as one client', async () => {
    const held = [];
    for (const [i, start] of MONDAY_STARTS.slice(0, 6).entries()) {
      const res = await pick(new Browser(h, `2001:db8:1:2::${(i + 1).toString(16)}`), start);
      if (String(res.headers.location).includes('hold=')) held.push(start);
    }
    expect(held).toHaveLength(2);
    // Another /64 is another client.
    const other = await pick(new Browser(h, '2001:db8:1:3::1'), MONDAY_STARTS[8]!);
    expect(String(other.headers.location)).toContain('hold=');
  });

  it('when no hold can be given, then the guest is told so and books the free time straight from the form, judged then', async () => {
    const client = '203.0.113.9';
    await pick(new Browser(h, client), MONDAY_STARTS[0]!);
    await pick(new Browser(h, client), MONDAY_STARTS[1]!);
    const guest = new Browser(h, client);
    const picked = await pick(guest, MONDAY_STARTS[2]!);
    const location = String(picked.headers.location);
    expect(location).toContain('/details');
    expect(location).not.toContain('hold=');
    const form = await guest.get(location);
    expect(form.statusCode, form.body).toBe(200);
    expect(form.body).toContain('We could not hold this time for you');
    // Meanwhile someone books that very time: the form's booking is judged when it is sent.
    const api = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: { eventTypeId: et.id, start: MONDAY_STARTS[2], guestName: 'First', guestEmail: 'first@example.com' },
    });
    expect(api.statusCode).toBe(201);
    const lost = await guest.post(`${PAGE}/book`, {
      ...hiddenFields(form.body),
      name: 'Late',
      email: 'late@example.com',
    });
    expect(lost.statusCode).toBe(303);
    expect(String(lost.headers.location)).toContain('notice=taken');
    expect(await confirmedCount()).toBe(1);

    const booked = await book(guest, MONDAY_STARTS[3]!, 'Unheld Guest');
    expect(String(booked.headers.location)).toMatch(/^\/manage\//);
    const bookings = await h.request({ method: 'GET', url: '/api/v1/bookings?from=2026-01-05T00:00:00Z', token });
    expect(bookings.json<{ data: Array<{ start: string; guestName: string; source: string }> }>().data).toEqual([
      expect.objectContaining({ start: MONDAY_STARTS[2], guestName: 'First', source: 'api' }),
      expect.objectContaining({ start: MONDAY_STARTS[3], guestName: 'Unheld Guest', source: 'page' }),
    ]);
  });

  it('when the holder’s page holds are all taken by many clients, then a new guest still books a free time from the form', async () => {
    const full = await createHarness({ now: BEFORE_MONDAY, pageHoldsPerHolder: 3, pageHoldsPerClient: 2 });
    try {
      const fullToken = await full.key('alice');
      await createEventType(full, fullToken, { title: 'Intro call', durationMinutes: 30, public: true });
      for (const [i, start] of MONDAY_STARTS.slice(0, 3).entries()) {
        const res = await pick(new Browser(full, `192.0.2.${i + 1}`), start);
        expect(String(res.headers.location)).toContain('hold=');
      }
      const booked = await book(new Browser(full, '198.51.100.30'), MONDAY_STARTS[5]!, 'Still Books');
      expect(String(booked.headers.location)).toMatch(/^\/manage\//);
    } finally {
      await full.close();
    }
  });

  it('when a held time ran out before the form was sent and it is still free, then it is booked all the same', async () => {
    const guest = new Browser(h, '198.51.100.40');
    const picked = await pick(guest, MONDAY_STARTS[4]!);
    const form = await guest.get(String(picked.headers.location));
    expect(form.body).toContain('We hold this time for you');
    h.clock.set(Date.parse(BEFORE_MONDAY) + 600_000);
    const booked = await guest.post(`${PAGE}/book`, {
      ...hiddenFields(form.body),
      name: 'Slow',
      email: 'slow@example.com',
    });
    expect(String(booked.headers.location)).toMatch(/^\/manage\//);
    expect(await confirmedCount()).toBe(1);
  });
});

describe('the holder’s view of its holds (GET /api/v1/holds)', () => {
  it('lists live holds with their source, filters by event type and start, and releases a page hold', async () => {
    const other = await createEventType(h, token, { title: 'Long call', durationMinutes: 60 });
    await pick(new Browser(h, '198.51.100.50'), MONDAY_STARTS[0]!);
    const api = await h.request({
      method: 'POST',
      url: '/api/v1/holds',
      token,
      json: { eventTypeId: other.id, start: MONDAY_STARTS[4] },
    });
    expect(api.statusCode).toBe(201);
    expect(api.json()).toMatchObject({ source: 'api' });

    const all = await h.request({ method: 'GET', url: '/api/v1/holds', token });
    expect(all.statusCode).toBe(200);
    const holds = all.json<{ data: Array<{ id: string; source: string; start: string }>; nextCursor: null }>();
    expect(holds.data.map((hold) => [hold.start, hold.source])).toEqual([
      [MONDAY_STARTS[0], 'page'],
      [MONDAY_STARTS[4], 'api'],
    ]);
    expect(holds.nextCursor).toBeNull();

    const ofOther = await h.request({ method: 'GET', url: `/api/v1/holds?eventTypeId=${other.id}`, token });
    expect(ofOther.json<{ data: unknown[] }>().data).toHaveLength(1);
    const early = await h.request({ method: 'GET', url: `/api/v1/holds?to=${MONDAY_STARTS[1]}`, token });
    expect(early.json<{ data: Array<{ source: string }> }>().data.map((hold) => hold.source)).toEqual(['page']);
    const paged = await h.request({ method: 'GET', url: '/api/v1/holds?limit=1', token });
    const cursor = paged.json<{ nextCursor: string }>().nextCursor;
    const next = await h.request({ method: 'GET', url: `/api/v1/holds?limit=1&cursor=${cursor}`, token });
    expect(next.json<{ data: Array<{ source: string }> }>().data.map((hold) => hold.source)).toEqual(['api']);

    const pageHold = holds.data[0]!;
    const released = await h.request({ method: 'DELETE', url: `/api/v1/holds/${pageHold.id}`, token });
    expect(released.statusCode).toBe(204);
    const slots = await h.request({
      method: 'GET',
      url: `/api/v1/slots?eventTypeId=${et.id}&from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z`,
      token,
    });
    expect(slots.json<{ data: Array<{ start: string }> }>().data.map((s) => s.start)).toContain(MONDAY_STARTS[0]);

    // Expired holds are gone from the list.
    h.clock.set(Date.parse(BEFORE_MONDAY) + 3_600_000);
    expect((await h.request({ method: 'GET', url: '/api/v1/holds', token })).json<{ data: unknown[] }>().data).toEqual(
      [],
    );
  });

  it('lists only the key holder’s holds, and refuses a bad range on its field', async () => {
    await pick(new Browser(h, '198.51.100.60'), MONDAY_STARTS[0]!);
    const bob = await h.key('bob');
    expect(
      (await h.request({ method: 'GET', url: '/api/v1/holds', token: bob })).json<{ data: unknown[] }>().data,
    ).toEqual([]);
    await expectInvalid(
      await h.request({ method: 'GET', url: `/api/v1/holds?from=${MONDAY_STARTS[2]}&to=${MONDAY_STARTS[1]}`, token }),
      ['to'],
    );
    await expectInvalid(await h.request({ method: 'GET', url: '/api/v1/holds?from=yesterday', token }), ['from']);
  });
});

describe('bounds of a page’s instants (finding 8)', () => {
  it('when a form names an instant outside what a date can be, then the guest is sent back with a notice, never a 500', async () => {
    const guest = new Browser(h, '198.51.100.70');
    const page = await guest.get(`${PAGE}?date=2026-01-05`);
    const form = timeForms(page.body).get(MONDAY_STARTS[0]!)!;
    for (const start of ['+275760-09-13T00:00:00Z', '-271821-04-20T00:00:00Z', '+010000-01-01T00:00:00Z', 'soon']) {
      const res = await guest.post(`${PAGE}/hold`, { ...form, start });
      expect(res.statusCode, `${start}: ${res.body}`).toBe(303);
      expect(String(res.headers.location)).toContain('notice=taken');
      const details = await guest.get(`${PAGE}/details?start=${encodeURIComponent(start)}`);
      expect(details.statusCode, `${start}: ${details.body}`).toBe(303);
      const booked = await guest.post(`${PAGE}/book`, { ...form, start, name: 'X', email: 'x@example.com' });
      expect(booked.statusCode, `${start}: ${booked.body}`).toBe(303);
    }
    expect(await confirmedCount()).toBe(0);
  });
});
