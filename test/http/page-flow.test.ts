// The guest's path through the booking pages, as HTTP with cookies, on both stores (contract §10):
// pick a time (which holds it for this browser session), give the details, land on the booking's
// manage page. Losing a race, an expired hold, a bad form and a forged form each end where the
// guest can go on, with nothing half-done. (The same path in Chromium is test/pages/.)
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, createEventType, type EventTypeBody } from './helpers.js';
import { Browser, hiddenFields, timeForms } from './page-browser.js';

let h: Harness;
let token: string;
let et: EventTypeBody;
const PAGE = '/book/alice/intro-call';

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY, pageHoldsPerHolder: 2 });
  token = await h.key('alice');
  await h.request({ method: 'POST', url: '/api/v1/webhooks', token, json: { url: 'https://hooks.example.com/x' } });
  et = await createEventType(h, token, {
    title: 'Intro call',
    durationMinutes: 30,
    public: true,
    questions: [
      { id: 'company', label: 'Company', type: 'text', required: true },
      { id: 'topics', label: 'Topics', type: 'multiselect', options: ['api', 'pages'] },
      { id: 'terms', label: 'I accept the terms', type: 'checkbox', required: true },
    ],
  });
});

afterEach(async () => {
  await h.close();
});

/** Opens the page on Monday 5 January and picks `start`; returns the answer to the pick. */
async function pick(browser: Browser, start: string): Promise<LightMyRequestResponse> {
  const page = await browser.get(`${PAGE}?date=2026-01-05&tz=Europe/Berlin`);
  expect(page.statusCode, page.body).toBe(200);
  const form = timeForms(page.body).get(start);
  expect(form, `${start} is offered`).toBeDefined();
  return browser.post(`${PAGE}/hold`, form!);
}

async function slotsOfMonday(): Promise<string[]> {
  const res = await h.request({
    method: 'GET',
    url: `/api/v1/slots?eventTypeId=${et.id}&from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z`,
    token,
  });
  return res.json<{ data: Array<{ start: string }> }>().data.map((s) => s.start);
}

describe('picking a time and booking it', () => {
  it('when a guest picks a time and sends valid details, then the time is held meanwhile, booked as the guest, and the manage page confirms it', async () => {
    const guest = new Browser(h);
    const picked = await pick(guest, '2026-01-05T09:00:00.000Z');
    expect(picked.statusCode).toBe(303);
    const details = String(picked.headers.location);
    expect(details).toMatch(
      /^\/book\/alice\/intro-call\/details\?start=2026-01-05T09%3A00%3A00\.000Z&hold=hld_[a-z0-9]+&tz=Europe%2FBerlin&lang=en$/,
    );
    expect(await slotsOfMonday()).not.toContain('2026-01-05T09:00:00.000Z');

    const form = await guest.get(details);
    expect(form.statusCode, form.body).toBe(200);
    expect(form.body).toContain('Monday, January 5, 10:00 AM (Europe/Berlin)');
    expect(form.body).toContain('We hold this time for you until 1:10 AM.');
    const booked = await guest.post(`${PAGE}/book`, {
      ...hiddenFields(form.body),
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      q_company: 'Analytical Engines',
      q_topics: ['api', 'pages'],
      q_terms: 'on',
      notes: 'See you',
    });
    expect(booked.statusCode, booked.body).toBe(303);
    const manage = String(booked.headers.location);
    expect(manage).toMatch(/^\/manage\/bkg_[a-z0-9]+\.[A-Za-z0-9_-]{43}\?new=1&lang=en$/);

    const confirmation = await guest.get(manage);
    expect(confirmation.statusCode).toBe(200);
    expect(confirmation.body).toContain('<h1>Your booking is confirmed</h1>');
    expect(confirmation.body).toContain('10:00 AM–10:30 AM (Europe/Berlin)');
    expect(confirmation.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const bookingId = manage.split('/manage/')[1]!.split('.')[0]!;
    expect(confirmation.body).toContain(`href="/ics/${bookingId}.`);

    const api = (await h.request({ method: 'GET', url: `/api/v1/bookings/${bookingId}`, token })).json();
    expect(api).toMatchObject({
      start: '2026-01-05T09:00:00.000Z',
      source: 'page',
      guestName: 'Ada Lovelace',
      guestTimeZone: 'Europe/Berlin',
      notes: 'See you',
      answers: { company: 'Analytical Engines', topics: ['api', 'pages'], terms: true },
    });
    const [event] = await h.database.rows('webhook_events');
    expect(JSON.parse(String(event!.payload)).data.actor).toBe('guest');
    expect((await h.database.rows('bookings')).filter((b) => b.status === 'held')).toEqual([]);
  });

  it('when another guest takes the time first, then the second is sent back to pick another, told why', async () => {
    const first = new Browser(h);
    const second = new Browser(h);
    const page = await second.get(`${PAGE}?date=2026-01-05`);
    const form = timeForms(page.body).get('2026-01-05T09:00:00.000Z')!;
    expect((await pick(first, '2026-01-05T09:00:00.000Z')).statusCode).toBe(303);

    const lost = await second.post(`${PAGE}/hold`, form);
    expect(lost.statusCode).toBe(303);
    expect(String(lost.headers.location)).toContain('notice=taken');
    const back = await second.get(String(lost.headers.location));
    expect(back.body).toContain('Sorry, that time was just taken. Please choose another.');
    expect(timeForms(back.body).has('2026-01-05T09:00:00.000Z')).toBe(false);
  });

  it('when the same browser picks another time, then its first hold is released', async () => {
    const guest = new Browser(h);
    await pick(guest, '2026-01-05T09:00:00.000Z');
    await pick(guest, '2026-01-05T10:00:00.000Z');
    const free = await slotsOfMonday();
    expect(free).toContain('2026-01-05T09:00:00.000Z');
    expect(free).not.toContain('2026-01-05T10:00:00.000Z');
  });

  it('when more browsers hold times than PUBLIC_HOLDS_PER_HOLDER allows, then the next gets the form without a hold, and its time stays free until booked', async () => {
    expect((await pick(new Browser(h), '2026-01-05T09:00:00.000Z')).statusCode).toBe(303);
    expect(String((await pick(new Browser(h), '2026-01-05T10:00:00.000Z')).headers.location)).toContain('hold=');
    const third = new Browser(h);
    const unheld = String((await pick(third, '2026-01-05T11:00:00.000Z')).headers.location);
    expect(unheld).toBe('/book/alice/intro-call/details?start=2026-01-05T11%3A00%3A00.000Z&tz=Europe%2FBerlin&lang=en');
    expect((await third.get(unheld)).body).toContain('We could not hold this time for you');
    expect(await slotsOfMonday()).toContain('2026-01-05T11:00:00.000Z');
    // An API hold is not a page hold: the limit does not count it.
    const api = await h.request({
      method: 'POST',
      url: '/api/v1/holds',
      token,
      json: { eventTypeId: et.id, start: '2026-01-05T12:00:00Z' },
    });
    expect(api.statusCode).toBe(201);
  });

  it('when the details are wrong, then the form comes back with a message next to each field and what was typed, and the time stays held', async () => {
    const guest = new Browser(h);
    const details = String((await pick(guest, '2026-01-05T09:00:00.000Z')).headers.location);
    const form = await guest.get(details);
    const res = await guest.post(`${PAGE}/book`, {
      ...hiddenFields(form.body),
      name: '',
      email: 'ada-at-example',
      q_company: '<script>alert(1)</script>',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Please correct the marked fields.');
    expect(res.body).toMatch(/id="name"[^>]*aria-invalid="true"[^>]*aria-describedby="name-error"/);
    expect(res.body).toContain('<p class="field-error" id="name-error">Please fill this in.</p>');
    expect(res.body).toContain('<p class="field-error" id="email-error">Please enter an e-mail address.</p>');
    expect(res.body).toContain('<p class="field-error" id="q_terms-error">Please fill this in.</p>');
    expect(res.body).toContain('value="ada-at-example"');
    expect(res.body).toContain('value="&lt;script>alert(1)&lt;/script>"');
    expect(res.body).not.toMatch(/<script(?! src="\/assets\/pages\.js")/);
    expect(await slotsOfMonday()).not.toContain('2026-01-05T09:00:00.000Z');
    expect((await h.database.rows('bookings')).filter((b) => b.status === 'confirmed')).toEqual([]);
  });

  it('when the name holds a line break or another control character, then the form comes back with a message next to it in the guest’s language, and nothing is booked', async () => {
    const guest = new Browser(h);
    const details = String((await pick(guest, '2026-01-05T09:00:00.000Z')).headers.location);
    const form = hiddenFields((await guest.get(details)).body);
    const answers = { email: 'ada@example.com', q_company: 'AE', q_terms: 'on' };
    for (const [lang, message] of [
      ['en', 'Please remove line breaks, tabs and other invisible control characters.'],
      ['de', 'Bitte entfernen Sie Zeilenumbrüche, Tabulatoren und andere unsichtbare Steuerzeichen.'],
    ] as const) {
      for (const name of ['Ada\r\nBEGIN:VEVENT', 'Ada\tLovelace', 'Ada\u001b[31m']) {
        const res = await guest.post(`${PAGE}/book`, { ...form, ...answers, lang, name });
        expect(res.statusCode, name).toBe(400);
        expect(res.body).toMatch(/id="name"[^>]*aria-invalid="true"[^>]*aria-describedby="name-error"/);
        expect(res.body).toContain(`<p class="field-error" id="name-error">${message}</p>`);
      }
    }
    expect((await h.database.rows('bookings')).filter((b) => b.status === 'confirmed')).toEqual([]);
  });

  it('when the e-mail is one the API refuses (a@b..c), then the form refuses it too, with the message next to the field in the guest’s language', async () => {
    const refused = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: { eventTypeId: et.id, start: '2026-01-05T12:00:00Z', guestName: 'Ada', guestEmail: 'a@b..c' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([expect.objectContaining({ field: 'guestEmail' })]);
    const guest = new Browser(h);
    const details = String((await pick(guest, '2026-01-05T09:00:00.000Z')).headers.location);
    const form = hiddenFields((await guest.get(details)).body);
    const answers = { name: 'Ada', q_company: 'AE', q_terms: 'on' };
    for (const [lang, message] of [
      ['en', 'Please enter an e-mail address.'],
      ['de', 'Bitte geben Sie eine E-Mail-Adresse ein.'],
    ] as const) {
      for (const email of ['a@b..c', 'a@b', `${'a'.repeat(310)}@example.com`]) {
        const res = await guest.post(`${PAGE}/book`, { ...form, ...answers, lang, email });
        expect(res.statusCode, email).toBe(400);
        expect(res.body).toMatch(/id="email"[^>]*aria-invalid="true"[^>]*aria-describedby="email-error"/);
        expect(res.body).toContain(`<p class="field-error" id="email-error">${message}</p>`);
      }
    }
    expect((await h.database.rows('bookings')).filter((b) => b.status === 'confirmed')).toEqual([]);
  });

  it('when the name or notes are longer than the API takes, then the form says how long they may be, and at the limit it books', async () => {
    const guest = new Browser(h);
    const details = String((await pick(guest, '2026-01-05T09:00:00.000Z')).headers.location);
    const form = hiddenFields((await guest.get(details)).body);
    const answers = { email: 'ada@example.com', q_company: 'AE', q_terms: 'on' };
    const long = await guest.post(`${PAGE}/book`, {
      ...form,
      ...answers,
      lang: 'de',
      name: 'A'.repeat(201),
      notes: 'n'.repeat(2001),
    });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('<p class="field-error" id="name-error">Bitte höchstens 200 Zeichen verwenden.</p>');
    expect(long.body).toContain('<p class="field-error" id="notes-error">Bitte höchstens 2000 Zeichen verwenden.</p>');
    const booked = await guest.post(`${PAGE}/book`, {
      ...form,
      ...answers,
      name: ` ${'A'.repeat(200)} `,
      notes: 'n'.repeat(2000),
    });
    expect(booked.statusCode, booked.body).toBe(303);
    const [booking] = (await h.database.rows('bookings')).filter((b) => b.status === 'confirmed');
    expect(booking).toMatchObject({ guest_name: 'A'.repeat(200) });
  });

  it('when the held time ran out and was taken before the details were sent, then the guest is sent back to pick again, and nothing is booked for it', async () => {
    const guest = new Browser(h);
    const details = String((await pick(guest, '2026-01-05T09:00:00.000Z')).headers.location);
    const form = await guest.get(details);
    h.clock.set(Date.parse(BEFORE_MONDAY) + 600_000);
    const other = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: {
        eventTypeId: et.id,
        start: '2026-01-05T09:00:00Z',
        guestName: 'First',
        guestEmail: 'first@example.com',
        answers: { company: 'AE', terms: true },
      },
    });
    expect(other.statusCode).toBe(201);
    const res = await guest.post(`${PAGE}/book`, {
      ...hiddenFields(form.body),
      name: 'Ada',
      email: 'ada@example.com',
      q_company: 'AE',
      q_terms: 'on',
    });
    expect(res.statusCode).toBe(303);
    expect(String(res.headers.location)).toContain('notice=taken');
    expect((await guest.get(String(res.headers.location))).body).toContain('Sorry, that time was just taken.');
    expect(
      (await h.database.rows('bookings')).filter((b) => b.status === 'confirmed').map((b) => b.guest_name),
    ).toEqual(['First']);
  });

  it('when a form comes without its CSRF token or from another browser, then it is refused and nothing is held or booked', async () => {
    const guest = new Browser(h);
    const page = await guest.get(`${PAGE}?date=2026-01-05`);
    const form = timeForms(page.body).get('2026-01-05T09:00:00.000Z')!;
    const { _csrf: _dropped, ...withoutToken } = form;
    expect((await guest.post(`${PAGE}/hold`, withoutToken)).statusCode).toBe(403);
    // The token is bound to the browser's own CSRF cookie: another browser cannot use it.
    expect((await new Browser(h).post(`${PAGE}/hold`, form)).statusCode).toBe(403);
    expect(await slotsOfMonday()).toContain('2026-01-05T09:00:00.000Z');
  });

  it('when a browser brings a page-session cookie the server did not make, then it gets one of the server’s instead, and whoever planted the first cannot end its hold', async () => {
    const planted = 'x'.repeat(43);
    const guest = new Browser(h);
    guest.plant('sw_page', planted);
    const picked = await pick(guest, '2026-01-05T09:00:00.000Z');
    expect(picked.statusCode).toBe(303);
    expect(guest.cookie('sw_page')).not.toBe(planted);
    const planter = new Browser(h);
    planter.plant('sw_page', planted);
    const page = await planter.get(`${PAGE}?date=2026-01-05&tz=Europe/Berlin`);
    // The planter picks under the cookie it planted (a browser keeps what it was told to).
    planter.plant('sw_page', planted);
    expect((await planter.post(`${PAGE}/hold`, timeForms(page.body).get('2026-01-05T10:00:00.000Z')!)).statusCode).toBe(
      303,
    );
    const details = await guest.get(String(picked.headers.location));
    expect(details.statusCode, 'the guest’s hold ended').toBe(200);
  });

  it('when the pages are served over https, then the session cookie is a __Host- one, so a session cookie another site of the domain sets for it is not read', async () => {
    await h.close();
    h = await createHarness({ now: BEFORE_MONDAY, publicBaseUrl: 'https://book.example.com' });
    token = await h.key('alice');
    await createEventType(h, token, { title: 'Intro call', durationMinutes: 30, public: true });
    const planter = new Browser(h);
    const page = await planter.get(`${PAGE}?date=2026-01-05&tz=Europe/Berlin`);
    const setCookie = [page.headers['set-cookie'] ?? []].flat().find((line) => line.startsWith('__Host-sw_page='));
    expect(setCookie).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    // The planter's own session, as the server made it, set for the guest by a sibling site
    // (`Domain=example.com`): only a cookie without the prefix can be set that way.
    const guest = new Browser(h);
    guest.plant('sw_page', planter.cookie('__Host-sw_page')!);
    const picked = await pick(guest, '2026-01-05T09:00:00.000Z');
    expect(picked.statusCode).toBe(303);
    expect((await planter.post(`${PAGE}/hold`, timeForms(page.body).get('2026-01-05T10:00:00.000Z')!)).statusCode).toBe(
      303,
    );
    expect((await guest.get(String(picked.headers.location))).statusCode, 'the guest’s hold ended').toBe(200);
  });

  it('when another browser opens the details of someone’s hold, then it is sent back: a hold is its session’s', async () => {
    const guest = new Browser(h);
    const details = String((await pick(guest, '2026-01-05T09:00:00.000Z')).headers.location);
    const stranger = await new Browser(h).get(details);
    expect(stranger.statusCode).toBe(303);
    expect(String(stranger.headers.location)).toContain('notice=taken');
  });
});

describe('the manage page: seeing, cancelling and moving a booking as the guest', () => {
  /** Books 09:00 Berlin on Monday 5 January through the pages; returns the manage page's path. */
  async function bookAsGuest(guest: Browser): Promise<string> {
    const details = String((await pick(guest, '2026-01-05T09:00:00.000Z')).headers.location);
    const form = await guest.get(details);
    const booked = await guest.post(`${PAGE}/book`, {
      ...hiddenFields(form.body),
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      q_company: 'AE',
      q_terms: 'on',
    });
    return String(booked.headers.location).split('?')[0]!;
  }

  function idOf(manage: string): string {
    return manage.split('/manage/')[1]!.split('.')[0]!;
  }

  async function apiBooking(id: string): Promise<{ status: string; cancellationReason: string | null; start: string }> {
    return (await h.request({ method: 'GET', url: `/api/v1/bookings/${id}`, token })).json();
  }

  it('when the guest cancels with a reason, then the booking is cancelled as the guest and the page says so, with no actions left', async () => {
    const guest = new Browser(h);
    const manage = await bookAsGuest(guest);
    // Following the link (as a mail scanner would) changes nothing.
    const page = await guest.get(manage);
    expect(page.body).toContain('Cancel the booking');
    expect((await guest.get(`${manage}/cancel`)).statusCode).toBe(405);
    expect((await apiBooking(idOf(manage))).status).toBe('confirmed');

    const cancelled = await guest.post(`${manage}/cancel`, { ...hiddenFields(page.body), reason: 'Ill, sorry' });
    expect(cancelled.statusCode).toBe(303);
    const after = await guest.get(String(cancelled.headers.location));
    expect(after.body).toContain('This booking was cancelled.');
    expect(after.body).not.toContain('Cancel the booking');
    expect(after.body).not.toContain('/reschedule');
    expect(await apiBooking(idOf(manage))).toMatchObject({ status: 'cancelled', cancellationReason: 'Ill, sorry' });
    const events = (await h.database.rows('webhook_events')).map((e) => JSON.parse(String(e.payload)));
    expect(events.find((e) => e.type === 'booking.cancelled')?.data.actor).toBe('guest');
  });

  it('when the guest moves the booking, then the same picker books the new time, the old link shows it moved and the new one confirms', async () => {
    const guest = new Browser(h);
    const manage = await bookAsGuest(guest);
    const page = await guest.get(manage);
    const link = page.body.match(/href="([^"]*\/reschedule\?[^"]*)"/)![1]!.replaceAll('&amp;', '&');
    // The booking's own time is offered too: a move is judged as if the booking were gone.
    const ownDay = await guest.get(`${link}&date=2026-01-05`);
    expect(ownDay.body).toContain('value="2026-01-05T09:00:00.000Z"');
    expect((await guest.get(`${PAGE}?date=2026-01-05`)).body).not.toContain('value="2026-01-05T09:00:00.000Z"');
    const picker = await guest.get(`${link}&date=2026-01-06`);
    expect(picker.statusCode).toBe(200);
    const form = timeForms(picker.body.replaceAll(`action="${manage}/reschedule"`, 'action="x/hold"')).get(
      '2026-01-06T13:00:00.000Z',
    );
    expect(picker.body).toContain(`action="${manage}/reschedule"`);
    const moved = await guest.post(`${manage}/reschedule`, form!);
    expect(moved.statusCode).toBe(303);
    const confirmation = await guest.get(String(moved.headers.location));
    expect(confirmation.body).toContain('Your booking is confirmed');
    expect(confirmation.body).toContain('Tuesday, January 6, 2:00 PM–2:30 PM (Europe/Berlin)');
    expect((await guest.get(manage)).body).toContain('This booking was moved to another time.');
    expect((await apiBooking(idOf(manage))).status).toBe('rescheduled');
    expect((await apiBooking(idOf(String(moved.headers.location).split('?')[0]!))).start).toBe(
      '2026-01-06T13:00:00.000Z',
    );
  });

  it('when the booking has started, then the guest can no longer change it', async () => {
    const guest = new Browser(h);
    const manage = await bookAsGuest(guest);
    const page = await guest.get(manage);
    h.clock.set('2026-01-05T09:00:00Z');
    const later = await guest.get(manage);
    expect(later.body).not.toContain('Cancel the booking');
    expect((await guest.post(`${manage}/cancel`, hiddenFields(page.body))).statusCode).toBe(303);
    expect((await apiBooking(idOf(manage))).status).toBe('confirmed');
    expect((await guest.get(`${manage}/reschedule`)).statusCode).toBe(303);
  });

  it('when a cancel comes without the CSRF token, or the link is forged, then nothing changes', async () => {
    const guest = new Browser(h);
    const manage = await bookAsGuest(guest);
    expect((await guest.post(`${manage}/cancel`, { reason: 'x' })).statusCode).toBe(403);
    const forged = manage.replace(/.{6}$/, 'AAAAAA');
    expect((await guest.get(forged)).statusCode).toBe(404);
    expect((await apiBooking(idOf(manage))).status).toBe('confirmed');
  });
});
