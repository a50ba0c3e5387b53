// Contract §16, on both stores: a booking records the language of its guest's e-mails
// (`guestLanguage`): `en` unless the API is told `de`, the booking page's language when a guest
// books there; a reschedule keeps it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { Browser, hiddenFields, timeForms } from './page-browser.js';
import { BEFORE_MONDAY, book, bookingInput, createEventType, expectInvalid, type BookingBody } from './helpers.js';

let h: Harness;
let key: string;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  key = await h.key('ada');
});

afterEach(async () => {
  await h.close();
});

const MONDAY_10 = '2026-01-05T10:00:00.000Z';

describe('guestLanguage', () => {
  it('when a booking is made through the API, then it is en unless de is sent; another language is a 400 on guestLanguage; a reschedule keeps it', async () => {
    const type = await createEventType(h, key);
    expect((await book(h, key, type.id, MONDAY_10)).guestLanguage).toBe('en');
    const german = await book(h, key, type.id, '2026-01-05T11:00:00.000Z', { guestLanguage: 'de' });
    expect(german.guestLanguage).toBe('de');
    const refused = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token: key,
      json: bookingInput(type.id, '2026-01-05T12:00:00.000Z', { guestLanguage: 'fr' }),
    });
    expectInvalid(refused, ['guestLanguage']);
    const moved = await h.request({
      method: 'POST',
      url: `/api/v1/bookings/${german.id}/reschedule`,
      token: key,
      json: { start: '2026-01-05T13:00:00.000Z' },
    });
    expect(moved.statusCode, moved.body).toBe(201);
    expect(moved.json<BookingBody>().guestLanguage).toBe('de');
  });

  it('when a guest books on the page in German, then the booking’s guestLanguage is de', async () => {
    await createEventType(h, key, { title: 'Intro', slug: 'intro', public: true });
    const page = '/book/ada/intro';
    const browser = new Browser(h);
    const picker = await browser.get(`${page}?date=2026-01-05&tz=UTC&lang=de`);
    const picked = await browser.post(`${page}/hold`, timeForms(picker.body).get(MONDAY_10)!);
    const form = await browser.get(String(picked.headers.location));
    const made = await browser.post(`${page}/book`, {
      ...hiddenFields(form.body),
      name: 'Grete',
      email: 'g@example.com',
    });
    expect(made.statusCode, made.body).toBe(303);
    const list = await h.request({
      method: 'GET',
      url: '/api/v1/bookings?from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z',
      token: key,
    });
    expect(list.json<{ data: BookingBody[] }>().data.map((booking) => booking.guestLanguage)).toEqual(['de']);
  });
});
