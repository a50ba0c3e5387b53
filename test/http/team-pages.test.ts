// Team booking pages (contract §14, last bullet; §10), as HTTP with cookies, on both stores: an
// account's public team event types at /team/{accountHandle}, the same 404 for everything else,
// a collective and a round-robin booking from the page (hosts chosen as the API chooses them),
// page holds of team types counted against every host they occupy and the client, the session's
// previous hold at the account ended first, and the guest links of a team booking (manage,
// cancel, reschedule, .ics, the framed confirmation) naming the hosts in the booking's order.
// (The same flow in Chromium is test/pages/team-flow.test.ts.)
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, createEventType } from './helpers.js';
import { Browser, hiddenFields, timeForms } from './page-browser.js';

const SHOP = 'https://shop.example.com';
const TEAM = '/team/acme/team-call';
const SALES = '/team/acme/sales-call';

interface Holder {
  id: string;
  key: string;
}

interface TeamBooking {
  id: string;
  status: string;
  start: string;
  source: string;
  hostIds: string[];
  manageUrl: string;
  icsUrl: string;
}

let h: Harness;
let acme: string;
let ada: Holder;
let bob: Holder;
let cy: Holder;
let teamCall: string;
let salesCall: string;

async function holderIn(account: string, name: string): Promise<Holder> {
  const { key, token } = await createApiKey(h.context, {
    accountName: account,
    holderName: name,
    scopes: ['*'],
    expiresAt: null,
  });
  return { id: key.holderId!, key: token };
}

function call(method: 'GET' | 'POST' | 'PATCH', url: string, token: string, json?: unknown) {
  return h.request({ method, url: `/api/v1${url}`, token, ...(json === undefined ? {} : { json }) });
}

async function teamType(fields: Record<string, unknown>): Promise<string> {
  const res = await call('POST', '/event-types', acme, { durationMinutes: 30, ...fields });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY, pageHoldsPerHolder: 3, pageHoldsPerClient: 2, embedOrigins: [SHOP] });
  acme = (await createApiKey(h.context, { accountName: 'acme', holderName: null, scopes: ['*'], expiresAt: null }))
    .token;
  ada = await holderIn('acme', 'ada');
  bob = await holderIn('acme', 'bob');
  cy = await holderIn('acme', 'cy');
  expect((await call('PATCH', '/me', ada.key, { displayName: 'Ada Lovelace' })).statusCode).toBe(200);
  teamCall = await teamType({
    title: 'Team call',
    assignment: 'collective',
    hosts: [{ holderId: bob.id }, { holderId: ada.id }],
    public: true,
    questions: [{ id: 'company', label: 'Company', type: 'text', required: true }],
  });
  salesCall = await teamType({
    title: 'Sales call',
    assignment: 'round-robin',
    hosts: [{ holderId: ada.id }, { holderId: bob.id, priority: 4 }, { holderId: cy.id }],
    public: true,
  });
});

afterEach(async () => {
  await h.close();
});

/** Opens the team type's page on Monday 5 January (UTC) and picks `start`; returns where the pick sends the guest. */
async function pick(browser: Browser, page: string, start: string): Promise<string> {
  const shown = await browser.get(`${page}?date=2026-01-05&tz=UTC`);
  expect(shown.statusCode, shown.body).toBe(200);
  const form = timeForms(shown.body).get(start);
  expect(form, `${start} is offered on ${page}`).toBeDefined();
  const picked = await browser.post(`${page}/hold`, form!);
  expect(picked.statusCode, picked.body).toBe(303);
  return String(picked.headers.location);
}

/** Picks `start` and books it with the guest's details; returns the manage page's path. */
async function bookOnPage(browser: Browser, page: string, start: string, name = 'Grace Hopper'): Promise<string> {
  const details = await browser.get(await pick(browser, page, start));
  expect(details.statusCode, details.body).toBe(200);
  const booked = await browser.post(`${page}/book`, {
    ...hiddenFields(details.body),
    name,
    email: 'grace@example.com',
    q_company: 'Navy',
  });
  expect(booked.statusCode, booked.body).toBe(303);
  return String(booked.headers.location).split('?')[0]!;
}

function idOf(manage: string): string {
  return manage.split('/manage/')[1]!.split('.')[0]!;
}

async function apiBooking(id: string): Promise<TeamBooking> {
  const res = await call('GET', `/bookings/${id}`, acme);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TeamBooking>();
}

async function liveHolds(): Promise<Array<{ id: string; hostIds: string[]; source: string }>> {
  return (await call('GET', '/holds', acme)).json<{ data: Array<{ id: string; hostIds: string[]; source: string }> }>()
    .data;
}

async function teamSlotsOfMonday(eventTypeId: string): Promise<string[]> {
  const res = await call(
    'GET',
    `/slots?eventTypeId=${eventTypeId}&from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z`,
    acme,
  );
  return res.json<{ data: Array<{ start: string }> }>().data.map((slot) => slot.start);
}

describe('GET /team/{accountHandle}', () => {
  it('when the account has public team event types, then the page lists exactly those, with their durations and links', async () => {
    await teamType({ title: 'Private call', assignment: 'collective', hosts: [{ holderId: ada.id }] });
    const page = await new Browser(h).get('/team/acme');
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('<h1>Book a time with acme</h1>');
    const links = [...page.body.matchAll(/<a href="(\/team\/acme\/[^"?]+)\?lang=en">/g)].map((m) => m[1]);
    expect(links).toEqual([SALES, TEAM]);
    expect(page.body).toContain('30 min');
    expect(page.body).not.toContain('Private call');
  });

  it('when the handle is unknown, the account has nothing public, a type is private, a holder’s slug is asked under /team or a team’s under /book, then the same 404 page', async () => {
    const browser = new Browser(h);
    const notFound = await browser.get('/book/nobody');
    expect(notFound.statusCode).toBe(404);
    await createApiKey(h.context, { accountName: 'globex', holderName: 'gus', scopes: ['*'], expiresAt: null });
    await teamType({
      title: 'Private call',
      slug: 'private-call',
      assignment: 'collective',
      hosts: [{ holderId: ada.id }],
    });
    await createEventType(h, ada.key, { title: 'Own call', slug: 'own-call', public: true });
    expect((await browser.get('/book/ada/own-call')).statusCode).toBe(200);
    for (const url of [
      '/team/nobody',
      '/team/nobody/team-call',
      '/team/globex',
      '/team/acme/private-call',
      '/team/acme/unknown',
      '/team/acme/own-call',
      '/team/ada/own-call',
      '/book/ada/team-call',
      '/book/acme/team-call',
    ]) {
      const res = await browser.get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toBe(notFound.body);
    }
  });

  it('when the browser prefers German, then the team’s page and its picker are German, naming the hosts', async () => {
    const browser = new Browser(h);
    const list = await browser.get('/team/acme', { 'accept-language': 'de' });
    expect(list.body).toContain('<h1>Termin bei acme buchen</h1>');
    const picker = await browser.get(`${TEAM}?date=2026-01-05&tz=UTC`, { 'accept-language': 'de' });
    expect(picker.body).toContain('mit bob und Ada Lovelace · 30 Min.');
    expect((await browser.get(`${SALES}?lang=de`)).body).toContain('mit Ada Lovelace, bob oder cy · 30 Min.');
  });
});

describe('booking a team type from its page', () => {
  it('when a guest books a collective type, then the time is held on every host meanwhile, booked on every host as the guest, and the confirmation names the hosts in the booking’s order', async () => {
    const guest = new Browser(h);
    const details = await pick(guest, TEAM, '2026-01-05T09:00:00.000Z');
    expect(details).toMatch(
      /^\/team\/acme\/team-call\/details\?start=2026-01-05T09%3A00%3A00\.000Z&hold=hld_[a-z0-9]+&tz=UTC&lang=en$/,
    );
    const [hold] = await liveHolds();
    expect(hold).toMatchObject({ source: 'page' });
    expect([...hold!.hostIds].sort()).toEqual([ada.id, bob.id].sort());
    const form = await guest.get(details);
    expect(form.body).toContain('Team call · with bob and Ada Lovelace · 30 min');
    expect(form.body).toContain('We hold this time for you until');

    const manage = await bookOnPage(guest, TEAM, '2026-01-05T10:00:00.000Z');
    expect(await liveHolds()).toEqual([]);
    const booking = await apiBooking(idOf(manage));
    expect(booking).toMatchObject({ status: 'confirmed', start: '2026-01-05T10:00:00.000Z', source: 'page' });
    expect([...booking.hostIds].sort()).toEqual([ada.id, bob.id].sort());
    const names = booking.hostIds.map((id) => (id === ada.id ? 'Ada Lovelace' : 'bob'));
    const page = await guest.get(`${manage}?new=1`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Your booking is confirmed</h1>');
    expect(page.body).toContain(`Team call · with ${names[0]} and ${names[1]}`);
    // Both hosts' own times are taken by it.
    expect(await teamSlotsOfMonday(teamCall)).not.toContain('2026-01-05T10:00:00.000Z');
  });

  it('when guests book a round-robin type, then each gets the host the API would choose (priority, then the rule), and the confirmation names that host', async () => {
    const first = await bookOnPage(new Browser(h), SALES, '2026-01-05T09:00:00.000Z');
    expect((await apiBooking(idOf(first))).hostIds).toEqual([bob.id]);
    expect((await new Browser(h).get(first)).body).toContain('Sales call · with bob');
    // bob is taken at 09:00: of ada and cy (same priority, no load, never booked), the smaller id.
    const second = await bookOnPage(new Browser(h, '127.0.0.2'), SALES, '2026-01-05T09:00:00.000Z', 'Alan Turing');
    const expected = [ada.id, cy.id].sort()[0]!;
    expect((await apiBooking(idOf(second))).hostIds).toEqual([expected]);
    expect((await new Browser(h).get(second)).body).toContain(
      `Sales call · with ${expected === ada.id ? 'Ada Lovelace' : 'cy'}`,
    );
    // One host is still free at 09:00: the page offers it, until the last is booked.
    expect(await teamSlotsOfMonday(salesCall)).toContain('2026-01-05T09:00:00.000Z');
    await bookOnPage(new Browser(h, '127.0.0.3'), SALES, '2026-01-05T09:00:00.000Z', 'Edsger Dijkstra');
    const shown = await new Browser(h).get(`${SALES}?date=2026-01-05&tz=UTC`);
    expect(timeForms(shown.body).has('2026-01-05T09:00:00.000Z')).toBe(false);
  });

  it('when the form is sent without a valid answer, then it comes back with the message next to the field, and nothing is booked', async () => {
    const guest = new Browser(h);
    const details = await guest.get(await pick(guest, TEAM, '2026-01-05T09:00:00.000Z'));
    const sent = await guest.post(`${TEAM}/book`, { ...hiddenFields(details.body), name: 'Grace', email: 'x' });
    expect(sent.statusCode).toBe(400);
    expect(sent.body).toContain('Please enter an e-mail address.');
    expect(sent.body).toContain('Please fill this in.');
    expect(
      (await call('GET', '/bookings?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z', acme)).json(),
    ).toMatchObject({
      data: [],
    });
  });

  it('when a team form comes without its CSRF token, then it is refused and nothing is held', async () => {
    const guest = new Browser(h);
    const shown = await guest.get(`${TEAM}?date=2026-01-05&tz=UTC`);
    const { _csrf: _dropped, ...form } = timeForms(shown.body).get('2026-01-05T09:00:00.000Z')!;
    expect((await guest.post(`${TEAM}/hold`, form)).statusCode).toBe(403);
    expect(await liveHolds()).toEqual([]);
  });
});

describe('page holds of team types (contract §10 caps, counted per host)', () => {
  it('when one client picks time after time in fresh sessions, then it holds at most PUBLIC_HOLDS_PER_CLIENT times on a host, team and own pages together, and another client still holds', async () => {
    await createEventType(h, ada.key, { title: 'Own call', slug: 'own-call', public: true });
    expect(await pick(new Browser(h), TEAM, '2026-01-05T09:00:00.000Z')).toContain('hold=');
    expect(await pick(new Browser(h), TEAM, '2026-01-05T10:00:00.000Z')).toContain('hold=');
    // Past the client's cap on ada and bob: the form without a hold, the time still free.
    const unheld = await pick(new Browser(h), TEAM, '2026-01-05T11:00:00.000Z');
    expect(unheld).not.toContain('hold=');
    expect(await teamSlotsOfMonday(teamCall)).toContain('2026-01-05T11:00:00.000Z');
    // ada's own page counts the team holds occupying her.
    expect(await pick(new Browser(h), '/book/ada/own-call', '2026-01-05T12:00:00.000Z')).not.toContain('hold=');
    // Round robin chooses bob there, on whom the client is at its cap too.
    expect(await pick(new Browser(h), SALES, '2026-01-05T13:00:00.000Z')).not.toContain('hold=');
    expect(await pick(new Browser(h, '127.0.0.2'), TEAM, '2026-01-05T11:00:00.000Z')).toContain('hold=');
    expect((await liveHolds()).length).toBe(3);
  });

  it('when many clients hold a host’s times, then past PUBLIC_HOLDS_PER_HOLDER on that host no hold is given, on team or own pages, and the guest books from the form', async () => {
    await createEventType(h, ada.key, { title: 'Own call', slug: 'own-call', public: true });
    for (const [index, hour] of ['09', '10', '11'].entries()) {
      expect(await pick(new Browser(h, `10.0.0.${index + 1}`), TEAM, `2026-01-05T${hour}:00:00.000Z`)).toContain(
        'hold=',
      );
    }
    const late = new Browser(h, '10.0.0.9');
    const unheld = await pick(late, TEAM, '2026-01-05T12:00:00.000Z');
    expect(unheld).not.toContain('hold=');
    expect(await pick(new Browser(h, '10.0.0.10'), '/book/ada/own-call', '2026-01-05T13:00:00.000Z')).not.toContain(
      'hold=',
    );
    const form = await late.get(unheld);
    expect(form.body).toContain('We could not hold this time for you');
    const booked = await late.post(`${TEAM}/book`, {
      ...hiddenFields(form.body),
      name: 'Grace',
      email: 'grace@example.com',
      q_company: 'Navy',
    });
    expect(booked.statusCode, booked.body).toBe(303);
    expect((await apiBooking(idOf(String(booked.headers.location)))).start).toBe('2026-01-05T12:00:00.000Z');
    expect((await liveHolds()).length).toBe(3);
  });

  it('when the same browser picks another time at the account, even of another team type, then its first page hold ends', async () => {
    const guest = new Browser(h);
    await pick(guest, TEAM, '2026-01-05T09:00:00.000Z');
    await pick(guest, SALES, '2026-01-05T10:00:00.000Z');
    const holds = await liveHolds();
    expect(holds.length).toBe(1);
    expect(await teamSlotsOfMonday(teamCall)).toContain('2026-01-05T09:00:00.000Z');
    await pick(guest, TEAM, '2026-01-05T11:00:00.000Z');
    expect((await liveHolds()).map((hold) => hold.id)).not.toContain(holds[0]!.id);
    expect((await liveHolds()).length).toBe(1);
  });
});

describe('the guest links of a team booking', () => {
  it('when the guest opens the .ics link, then it is the booking with the hosts named in its order', async () => {
    const manage = await bookOnPage(new Browser(h), TEAM, '2026-01-05T09:00:00.000Z');
    const booking = await apiBooking(idOf(manage));
    const file = await new Browser(h).get(new URL(booking.icsUrl).pathname);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/calendar');
    const names = booking.hostIds.map((id) => (id === ada.id ? 'Ada Lovelace' : 'bob'));
    expect(file.body.replace(/\r\n /g, '')).toContain(`SUMMARY:Team call with ${names[0]} and ${names[1]}`);
    expect(file.body).toContain('DTSTART:20260105T090000Z');
    // Each host's feed lists the team booking it hosts.
    const me = (await call('GET', '/me', bob.key)).json<{ holder: { calendarFeedUrl: string } }>();
    const feed = await new Browser(h).get(new URL(me.holder.calendarFeedUrl).pathname);
    expect(feed.body).toContain(`UID:${booking.id}@slotwise`);
  });

  it('when the guest cancels from the manage link, then the team booking is cancelled as the guest and the page says so', async () => {
    await call('POST', '/webhooks', acme, { url: 'https://hooks.example.com/x' });
    const guest = new Browser(h);
    const manage = await bookOnPage(guest, TEAM, '2026-01-05T09:00:00.000Z');
    const page = await guest.get(manage);
    expect(page.body).toContain('Cancel the booking');
    const cancelled = await guest.post(`${manage}/cancel`, { ...hiddenFields(page.body), reason: 'Ill' });
    expect(cancelled.statusCode).toBe(303);
    expect((await guest.get(String(cancelled.headers.location))).body).toContain('This booking was cancelled.');
    expect(await apiBooking(idOf(manage))).toMatchObject({ status: 'cancelled' });
    const events = (await h.database.rows('webhook_events')).map((e) => JSON.parse(String(e.payload)));
    expect(events.find((e) => e.type === 'booking.cancelled')?.data.actor).toBe('guest');
    expect(await teamSlotsOfMonday(teamCall)).toContain('2026-01-05T09:00:00.000Z');
  });

  it('when the guest moves a team booking, then the team picker offers its own time too and books the new time on the same hosts', async () => {
    const guest = new Browser(h);
    const manage = await bookOnPage(guest, SALES, '2026-01-05T09:00:00.000Z');
    expect((await apiBooking(idOf(manage))).hostIds).toEqual([bob.id]);
    const page = await guest.get(manage);
    const link = page.body.match(/href="([^"]*\/reschedule\?[^"]*)"/)![1]!.replaceAll('&amp;', '&');
    // Make bob's own time at 09:00 the only free host there: ada and cy are booked.
    await bookOnPage(new Browser(h, '127.0.0.2'), SALES, '2026-01-05T09:00:00.000Z', 'Alan');
    await bookOnPage(new Browser(h, '127.0.0.3'), SALES, '2026-01-05T09:00:00.000Z', 'Edsger');
    expect(timeForms((await guest.get(`${SALES}?date=2026-01-05&tz=UTC`)).body).has('2026-01-05T09:00:00.000Z')).toBe(
      false,
    );
    const ownDay = await guest.get(`${link}&date=2026-01-05`);
    expect(ownDay.statusCode).toBe(200);
    expect(ownDay.body).toContain('value="2026-01-05T09:00:00.000Z"');
    const picker = await guest.get(`${link}&date=2026-01-06`);
    expect(picker.body).toContain(`action="${manage}/reschedule"`);
    const form = timeForms(picker.body.replaceAll(`action="${manage}/reschedule"`, 'action="x/hold"')).get(
      '2026-01-06T13:00:00.000Z',
    );
    const moved = await guest.post(`${manage}/reschedule`, form!);
    expect(moved.statusCode).toBe(303);
    const confirmation = await guest.get(String(moved.headers.location));
    expect(confirmation.body).toContain('Your booking is confirmed');
    expect(confirmation.body).toContain('Sales call · with bob');
    expect((await apiBooking(idOf(manage))).status).toBe('rescheduled');
    const movedTo = await apiBooking(idOf(String(moved.headers.location).split('?')[0]!));
    expect(movedTo).toMatchObject({ start: '2026-01-06T13:00:00.000Z', hostIds: [bob.id] });
  });

  it('when a team type is booked in a frame, then the frame ends on a confirmation naming the hosts, which opens under the team’s page only', async () => {
    const get = (url: string) => h.request({ method: 'GET', url });
    const post = (url: string, form: Record<string, string>) =>
      h.request({
        method: 'POST',
        url,
        payload: new URLSearchParams(form).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      });
    const page = await get(`${TEAM}?embed=1&date=2026-01-05&tz=UTC`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['set-cookie']).toBeUndefined();
    const picked = await post(`${TEAM}/hold`, timeForms(page.body).get('2026-01-05T09:00:00.000Z')!);
    const details = await get(String(picked.headers.location));
    const booked = await post(`${TEAM}/book`, {
      ...hiddenFields(details.body),
      name: 'Grace',
      email: 'grace@example.com',
      q_company: 'Navy',
    });
    const url = String(booked.headers.location);
    expect(url).toMatch(/^\/team\/acme\/team-call\/booked\/bkg_[a-z0-9]+\.\d+\.[A-Za-z0-9_-]{43}\?/);
    const confirmation = await get(url);
    expect(confirmation.statusCode, confirmation.body).toBe(200);
    expect(confirmation.body).toContain('<h1>Your booking is confirmed</h1>');
    const booking = await apiBooking(url.split('/booked/')[1]!.split('.')[0]!);
    const names = booking.hostIds.map((id) => (id === ada.id ? 'Ada Lovelace' : 'bob'));
    expect(confirmation.body).toContain(`Team call · with ${names[0]} and ${names[1]}`);
    expect(confirmation.body).toContain('data-embed-message=');
    const [path, query] = url.split('?') as [string, string];
    const token = path.slice(path.lastIndexOf('/') + 1);
    for (const other of [`/book/ada/team-call/booked/${token}`, `/team/globex/team-call/booked/${token}`]) {
      expect((await get(`${other}?${query}`)).statusCode, other).toBe(404);
    }
  });
});
