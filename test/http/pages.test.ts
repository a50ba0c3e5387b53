// Contract §10's pages as HTTP, on both stores: the holder's page lists its public event types,
// every holder-written text is escaped, the security headers are strict, every missing page
// looks the same, and the language follows the browser or `?lang=`. (What a browser does with
// the pages is test/pages/, in Chromium.)
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseLocale } from '../../src/http/pages/messages.js';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, createEventType } from './helpers.js';

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
    expect(res.body).toContain('<a href="/book/alice/deep-dive">');
    expect(res.body).toContain('<a href="/book/alice/intro-call">');
    expect(res.body.indexOf('Deep dive')).toBeLessThan(res.body.indexOf('Intro call'));
    expect(res.body).toContain('90 min');
    expect(res.body).toContain('Say hello');
    expect(res.body).not.toContain('Internal sync');
    expect(res.body).not.toContain('Retired');
    expect(res.body).toContain('<link rel="stylesheet" href="/assets/pages.css"/>');
  });

  it('when holder-written text is hostile, then it is rendered as text, never as markup', async () => {
    const hostile = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';
    await h.request({ method: 'PATCH', url: '/api/v1/me', token, json: { displayName: `</title>${hostile}` } });
    await createEventType(h, token, { title: hostile, public: true, description: `${hostile}&amp;` });
    const res = await page('/book/alice');
    expect(res.statusCode).toBe(200);
    // Preact writes `<` and `&` as entities in text and `"` in attributes: nothing can open a tag.
    expect(res.body).not.toMatch(/<script|<img/i);
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

  it('when the browser prefers German, then the page is German, unless ?lang= asks otherwise', async () => {
    await createEventType(h, token, { title: 'Intro call', durationMinutes: 30, public: true });
    const german = await page('/book/alice', { 'accept-language': 'fr-CH, de-AT;q=0.9, en;q=0.8' });
    expect(german.body).toContain('<html lang="de">');
    expect(german.body).toContain('Termin bei alice buchen');
    expect(german.body).toContain('30 Min.');
    expect(german.headers['content-language']).toBe('de');
    expect(german.headers.vary).toContain('accept-language');
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
