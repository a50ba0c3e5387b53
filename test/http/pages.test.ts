// Contract §10's pages as HTTP, on both stores: the holder's page lists its public event types,
// every holder-written text is escaped, the security headers are strict, every missing page
// looks the same, and the language follows the browser or `?lang=`. (What a browser does with
// the pages is test/pages/, in Chromium.)
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseLocale } from '../../src/http/pages/messages.js';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, createEventType, putWeekdays } from './helpers.js';

let h: Harness;
let token: string;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  token = await h.key('alice');
});

afterEach(async () => {
  await h.close();
});

const page = (url: string, headers: Record<string, string> = {}) => h.request({ method: 'GET', url, headers });

describe('GET /book/{handle}', () => {
  it('when the holder has public event types, then the page lists exactly those, with their durations and links', async () => {
    await h.request({ method: 'PATCH', url: '/api/v1/me', token, json: { displayName: 'Alice Example' } });
    await createEventType(h, token, {
      title: 'Intro call',
      durationMinutes: 30,
      public: true,
      description: 'Say hello',
    });
    await createEventType(h, token, { title: 'Deep dive', durationMinutes: 90, public: true });
    await createEventType(h, token, { title: 'Internal sync', public: false });
    const gone = await createEventType(h, token, { title: 'Retired', public: true });
    await h.request({ method: 'DELETE', url: `/api/v1/event-types/${gone.id}`, token });

    const res = await page('/book/alice');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body.startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(res.body).toContain('<title>Book a time with Alice Example</title>');
    expect(res.body).toContain('<a href="/book/alice/deep-dive?lang=en">');
    expect(res.body).toContain('<a href="/book/alice/intro-call?lang=en">');
    expect(res.body.indexOf('Deep dive')).toBeLessThan(res.body.indexOf('Intro call'));
    expect(res.body).toContain('90 min');
    expect(res.body).toContain('Say hello');
    expect(res.body).not.toContain('Internal sync');
    expect(res.body).not.toContain('Retired');
    expect(res.body).toContain(
      '<link rel="stylesheet" href="/assets/pages.css"/><script src="/assets/pages.js" defer></script>',
    );
  });

  it('when holder-written text is hostile, then it is rendered as text, never as markup', async () => {
    const hostile = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';
    await h.request({ method: 'PATCH', url: '/api/v1/me', token, json: { displayName: `</title>${hostile}` } });
    await createEventType(h, token, { title: hostile, public: true, description: `${hostile}&amp;` });
    const res = await page('/book/alice');
    expect(res.statusCode).toBe(200);
    // Preact writes `<` and `&` as entities in text and `"` in attributes: nothing can open a tag.
    expect(res.body).not.toMatch(/<script(?! src="\/assets\/pages\.js")|<img/i);
    expect(res.body).toContain('&lt;script>alert(1)&lt;/script>');
    expect(res.body).toContain('&lt;/title>');
    expect(res.body).toContain('&amp;amp;');
  });

  it('when a page is served, then its headers forbid inline script, other origins, framing and referrers', async () => {
    await createEventType(h, token, { public: true });
    const res = await page('/book/alice');
    const csp = String(res.headers['content-security-policy']);
    expect(csp.split(';').map((d) => d.trim())).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        "style-src 'self'",
        "script-src 'self'",
        "form-action 'self'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
      ]),
    );
    expect(csp).not.toContain('unsafe');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('when the handle is unknown or the holder has nothing public, then the same 404 page, with nothing that tells them apart', async () => {
    await createEventType(h, token, { title: 'Private only', public: false });
    const unknown = await page('/book/nobody');
    const nothingPublic = await page('/book/alice');
    expect(unknown.statusCode).toBe(404);
    expect(nothingPublic.statusCode).toBe(404);
    expect(nothingPublic.body).toBe(unknown.body);
    expect(unknown.body).toContain('Page not found');
    expect(unknown.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('when the browser prefers German, then the page is German, unless ?lang= asks otherwise, and it links to itself in English', async () => {
    await createEventType(h, token, { title: 'Intro call', durationMinutes: 30, public: true });
    const german = await page('/book/alice', { 'accept-language': 'fr-CH, de-AT;q=0.9, en;q=0.8' });
    expect(german.body).toContain('<html lang="de">');
    expect(german.body).toContain('Termin bei alice buchen');
    expect(german.body).toContain('30 Min.');
    expect(german.headers['content-language']).toBe('de');
    expect(german.headers.vary).toContain('accept-language');
    // Switchable: the footer links to the same page in each other language.
    expect(german.body).toContain('<a href="/book/alice?lang=en" lang="en" hreflang="en">English</a>');
    const english = await page('/book/alice?lang=en', { 'accept-language': 'de' });
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toContain('Book a time with alice');
    expect((await page('/book/nobody', { 'accept-language': 'de' })).body).toContain('Seite nicht gefunden');
  });

  it('when the stylesheet is fetched, then it is CSS and small', async () => {
    const res = await page('/assets/pages.css');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/css/);
    expect(res.body.length).toBeLessThan(20_000);
  });
});

describe('GET /book/{handle}/{slug}', () => {
  let slug: string;

  beforeEach(async () => {
    slug = (await createEventType(h, token, { title: 'Intro call', durationMinutes: 30, public: true })).slug;
  });

  /** The page's free times of the chosen day: `[datetime, shown]`. */
  function times(body: string): Array<[string, string]> {
    return [...body.matchAll(/<time datetime="([^"]+)">([^<]+)<\/time>/g)].map((m) => [m[1]!, m[2]!]);
  }
  /** The days of the calendar that link to their times. */
  function freeDays(body: string): string[] {
    return [...body.matchAll(/date=(\d{4}-\d\d-\d\d)/g)].map((m) => m[1]!).filter((d, i, all) => all.indexOf(d) === i);
  }

  it('when opened without a zone, then the month shows the holder’s days with free times, the first chosen, in the holder’s zone', async () => {
    const res = await page(`/book/alice/${slug}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('<h1>Intro call</h1>');
    expect(res.body).toContain('Times are shown in <strong>UTC</strong>');
    expect(res.body).toContain('<h2>January 2026</h2>');
    // Thursday 1 January (today) to Saturday 31: weekdays only.
    const days = freeDays(res.body);
    expect(days[0]).toBe('2026-01-01');
    expect(days).not.toContain('2026-01-03');
    expect(days).toHaveLength(22);
    const shown = times(res.body);
    expect(shown).toHaveLength(16);
    expect(shown[0]).toEqual(['2026-01-01T09:00:00.000Z', '9:00 AM']);
    expect(shown[15]).toEqual(['2026-01-01T16:30:00.000Z', '4:30 PM']);
    expect(res.body).not.toContain('rel="prev"');
    expect(res.body).toContain('rel="next"');
  });

  it('when the guest is in another zone, then days and times are the guest’s, across the weeks when only America has moved its clocks', async () => {
    await putBerlinMornings();
    h.clock.set('2026-03-01T00:00:00Z');
    // Berlin 09:00 is 08:00Z in winter: 03:00 in New York before 8 March (EST), 04:00 after (EDT).
    const before = await page(`/book/alice/${slug}?tz=America/New_York&month=2026-03&date=2026-03-06`);
    expect(times(before.body)[0]).toEqual(['2026-03-06T08:00:00.000Z', '3:00 AM']);
    const between = await page(`/book/alice/${slug}?tz=America/New_York&month=2026-03&date=2026-03-09`);
    expect(times(between.body)[0]).toEqual(['2026-03-09T08:00:00.000Z', '4:00 AM']);
    // And after Europe moves too (29 March), 09:00 Berlin is 07:00Z: 03:00 in New York again.
    const after = await page(`/book/alice/${slug}?tz=America/New_York&month=2026-03&date=2026-03-30`);
    expect(times(after.body)[0]).toEqual(['2026-03-30T07:00:00.000Z', '3:00 AM']);
    expect(after.body).toContain('Times are shown in <strong>America/New_York</strong>');
    expect(after.body).toContain('<option value="America/New_York" selected>America/New_York</option>');
  });

  it('when the guest is far east, then a time falls on the guest’s next day', async () => {
    // 16:30 UTC on Monday 5 January is 05:30 on Tuesday 6 January in Auckland (UTC+13).
    const res = await page(`/book/alice/${slug}?tz=Pacific/Auckland&month=2026-01&date=2026-01-06`);
    expect(times(res.body).map(([instant]) => instant)).toContain('2026-01-05T16:30:00.000Z');
    expect(times(res.body).map(([instant]) => instant)).not.toContain('2026-01-06T16:30:00.000Z');
  });

  it('when the zone, month or date is nonsense, then it is ignored, never an error', async () => {
    for (const query of [
      'tz=Mars/Olympus',
      'tz=%3Cscript%3E',
      'month=2026-13',
      'month=1999-01',
      'date=2026-01-03',
      'tz=a&tz=b',
    ]) {
      const res = await page(`/book/alice/${slug}?${query}`);
      expect(res.statusCode, query).toBe(200);
      expect(res.body, query).toContain('Times are shown in <strong>UTC</strong>');
      expect(res.body, query).not.toMatch(/<script(?! src="\/assets\/pages\.js")/);
    }
    // Unlimited window: a page computes at most a year ahead (contract §10).
    expect((await page(`/book/alice/${slug}?month=2031-01`)).body).toContain('<h2>December 2026</h2>');
  });

  it('when the booking window ends this month, then there is no next month', async () => {
    const near = await createEventType(h, token, { title: 'Soon', public: true, bookingWindowDays: 10 });
    const res = await page(`/book/alice/${near.slug}`);
    expect(res.body).not.toContain('rel="next"');
    expect(freeDays(res.body).at(-1)).toBe('2026-01-09');
  });

  it('when a time is booked or held, then the page no longer shows it', async () => {
    const et = (await h.request({ method: 'GET', url: '/api/v1/event-types', token })).json<{
      data: Array<{ id: string }>;
    }>().data[0]!;
    await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: { eventTypeId: et.id, start: '2026-01-05T09:00:00Z', guestName: 'A', guestEmail: 'a@example.com' },
    });
    await h.request({
      method: 'POST',
      url: '/api/v1/holds',
      token,
      json: { eventTypeId: et.id, start: '2026-01-05T09:30:00Z' },
    });
    const shown = times((await page(`/book/alice/${slug}?date=2026-01-05`)).body).map(([instant]) => instant);
    expect(shown[0]).toBe('2026-01-05T10:00:00.000Z');
  });

  it('when the event type is private, deleted or unknown, then the same 404 as an unknown handle', async () => {
    const hidden = await createEventType(h, token, { title: 'Hidden', public: false });
    const unknownHandle = (await page('/book/nobody/intro-call')).body;
    for (const url of [`/book/alice/${hidden.slug}`, '/book/alice/nothing-here', `/book/nobody/${slug}`]) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toBe(unknownHandle);
    }
  });

  it('when the browser prefers German, then the month, weekdays and times are German', async () => {
    const res = await page(`/book/alice/${slug}`, { 'accept-language': 'de' });
    expect(res.body).toContain('<h2>Januar 2026</h2>');
    expect(res.body).toContain('abbr="Montag"');
    expect(times(res.body)[0]).toEqual(['2026-01-01T09:00:00.000Z', '9:00']);
    expect(res.body).toContain('Freie Termine am Donnerstag, 1. Januar');
  });

  async function putBerlinMornings(): Promise<void> {
    await putWeekdays(h, token, 'Europe/Berlin', [{ start: '09:00', end: '12:00' }]);
  }
});

describe('PUBLIC_RATE_LIMIT_PER_MINUTE', () => {
  it('when an address asks for more pages in a minute than allowed, then it gets 429 with Retry-After; other addresses and the stylesheet are not counted', async () => {
    await h.close();
    h = await createHarness({ now: BEFORE_MONDAY, pageRequestsPerMinute: 3 });
    token = await h.key('alice');
    await createEventType(h, token, { public: true });
    const from = (remoteAddress: string, url = '/book/alice', headers: Record<string, string> = {}) =>
      h.request({ method: 'GET', url, remoteAddress, headers });
    for (let i = 0; i < 3; i++) expect((await from('198.51.100.7')).statusCode).toBe(200);
    expect((await from('198.51.100.7', '/assets/pages.css')).statusCode).toBe(200);
    const refused = await from('198.51.100.7', '/book/nobody', { 'accept-language': 'de' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toContain('Zu viele Anfragen');
    expect((await from('203.0.113.9')).statusCode).toBe(200);
    // The API is not the pages' to limit.
    expect(
      (await h.request({ method: 'GET', url: '/api/v1/me', token, remoteAddress: '198.51.100.7' })).statusCode,
    ).toBe(200);
    h.clock.set(Date.parse(BEFORE_MONDAY) + 60_000);
    expect((await from('198.51.100.7')).statusCode).toBe(200);
  });
});

describe('the 429 page', () => {
  it('when an address is past the limit, then the 429 page carries the same CSP, Referrer-Policy and framing rules as the page it stands for: a booking page may be framed by the embed origins, a manage page never', async () => {
    await h.close();
    const shop = 'https://shop.example.com';
    h = await createHarness({ now: BEFORE_MONDAY, pageRequestsPerMinute: 1, embedOrigins: [shop] });
    const from = (url: string) => h.request({ method: 'GET', url, remoteAddress: '198.51.100.7' });
    expect((await from('/book/nobody')).statusCode).toBe(404);
    const cases = [
      { url: '/book/alice/intro-call?embed=1', frameAncestors: `frame-ancestors ${shop}`, frameOptions: undefined },
      { url: '/manage/bkg_x.y', frameAncestors: "frame-ancestors 'none'", frameOptions: 'DENY' },
      { url: '/manage/bkg_x.y/reschedule', frameAncestors: "frame-ancestors 'none'", frameOptions: 'DENY' },
    ];
    for (const { url, frameAncestors, frameOptions } of cases) {
      const refused = await from(url);
      expect(refused.statusCode, url).toBe(429);
      const csp = String(refused.headers['content-security-policy']).split(';');
      expect(csp, url).toContain("default-src 'none'");
      expect(csp, url).toContain(frameAncestors);
      expect(refused.headers['referrer-policy'], url).toBe('no-referrer');
      expect(refused.headers['x-frame-options'], url).toBe(frameOptions);
      expect(refused.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });
});

describe('chooseLocale', () => {
  it.each([
    [undefined, undefined, 'en'],
    [undefined, 'de', 'de'],
    [undefined, 'de-DE,de;q=0.9,en;q=0.8', 'de'],
    [undefined, 'en;q=0.5, de;q=0.9', 'de'],
    [undefined, 'fr, it;q=0.9', 'en'],
    [undefined, 'de;q=0, en', 'en'],
    [undefined, '*', 'en'],
    ['de', 'en', 'de'],
    ['xx', 'de', 'de'],
  ] as const)('when ?lang is %s and Accept-Language is %s, then %s', (query, header, expected) => {
    expect(chooseLocale(query, header)).toBe(expected);
  });
});
