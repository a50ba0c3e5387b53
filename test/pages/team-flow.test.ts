// A team's booking pages (contract §14) in a real browser (Debian's Chromium, driven by
// playwright-core): a guest books a collective type with the mouse and JavaScript on, another a
// round-robin type with JavaScript off on a phone-sized screen in German, a third inside a shop's
// frame; axe-core finds no serious or critical violation on any page; every confirmation names
// the hosts; the team page weighs at most 100 kB. Screenshots go to SLOTWISE_SCREENSHOTS, when
// set. Without /usr/bin/chromium the file is skipped with a message, unless
// SLOTWISE_REQUIRE_BROWSER=1 (set by .ci/run), which makes that a failure.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { putWeekdays } from '../http/helpers.js';
import { browserGate, CHROMIUM, pageLoad, seriousViolations, shoot } from '../support/browser.js';
import { createHarness, type Harness } from '../support/harness.js';

const RUN = browserGate('team booking page browser tests');

let h: Harness;
let base: string;
let browser: Browser;
let acme: string;
let shop: Server;
let shopOrigin: string;
const hostIds: Record<string, string> = {};

/** A holder of the account, open Monday to Friday 09:00–17:00 in `zone`, with a display name. */
async function host(name: string, displayName: string, zone: string): Promise<void> {
  const { key, token } = await createApiKey(h.context, {
    accountName: 'acme',
    holderName: name,
    scopes: ['*'],
    expiresAt: null,
  });
  hostIds[name] = key.holderId!;
  await putWeekdays(h, token, zone, [{ start: '09:00', end: '17:00' }]);
  const named = await h.request({ method: 'PATCH', url: '/api/v1/me', token, json: { displayName } });
  expect(named.statusCode, named.body).toBe(200);
}

async function teamType(fields: Record<string, unknown>): Promise<void> {
  const created = await h.request({
    method: 'POST',
    url: '/api/v1/event-types',
    token: acme,
    json: { durationMinutes: 30, public: true, ...fields },
  });
  expect(created.statusCode, created.body).toBe(201);
}

beforeAll(async () => {
  if (!RUN) return;
  shop = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><title>Shop</title></head><body>
<h1>Our shop</h1>
<iframe id="booking" title="Book a call" src="${base}/team/acme/team-call?embed=1&month=2026-01" style="width:100%;height:900px;border:0"></iframe>
<script>
window.received = [];
window.addEventListener('message', function (event) { window.received.push({ origin: event.origin, data: event.data }); });
</script></body></html>`);
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopOrigin = `http://localhost:${(shop.address() as AddressInfo).port}`;
  // Thursday 1 January 2026.
  h = await createHarness({ now: '2026-01-01T00:00:00Z', embedOrigins: [shopOrigin] });
  acme = (await createApiKey(h.context, { accountName: 'acme', holderName: null, scopes: ['*'], expiresAt: null }))
    .token;
  await host('ada', 'Ada Lovelace', 'Europe/Berlin');
  await host('grace', 'Grace Hopper', 'Europe/London');
  await host('alan', 'Alan Turing', 'Europe/London');
  await teamType({
    title: 'Team call',
    description: 'Meet the whole team.',
    assignment: 'collective',
    hosts: [{ holderId: hostIds.ada }, { holderId: hostIds.grace }],
    questions: [{ id: 'company', label: 'Company', type: 'text', required: true }],
  });
  await teamType({
    title: 'Sales call',
    assignment: 'round-robin',
    hosts: [{ holderId: hostIds.ada }, { holderId: hostIds.alan }],
  });
  base = await h.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await chromium.launch({ executablePath: CHROMIUM });
});

afterAll(async () => {
  await browser?.close();
  await h?.close();
  shop?.close();
});

/** The names of a booking's hosts, in its `hostIds` order. */
async function hostNamesOf(bookingId: string): Promise<string[]> {
  const booking = await h.request({ method: 'GET', url: `/api/v1/bookings/${bookingId}`, token: acme });
  const names: Record<string, string> = {
    [hostIds.ada!]: 'Ada Lovelace',
    [hostIds.grace!]: 'Grace Hopper',
    [hostIds.alan!]: 'Alan Turing',
  };
  return booking.json<{ hostIds: string[] }>().hostIds.map((id) => names[id]!);
}

describe.skipIf(!RUN)('a team’s booking pages in Chromium', () => {
  it('when a guest in New York books the collective type with the mouse, then it is booked on both hosts and the confirmation names them, with no accessibility violations on the way', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'en-US',
      timezoneId: 'America/New_York',
    });
    context.setDefaultTimeout(5_000);
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));

    await page.goto(`${base}/team/acme`);
    expect(await page.textContent('h1')).toBe('Book a time with acme');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: /Team call/ }).click();
    // The script moves the times to the browser's zone (the team's is its first host's, Berlin).
    await expect.poll(() => page.textContent('.zone strong')).toBe('America/New_York');
    expect(await page.textContent('.meta')).toBe('with Ada Lovelace and Grace Hopper · 30 min');
    expect(await seriousViolations(page)).toEqual([]);

    // Both must be free: Ada's 09:00 in Berlin is before Grace's 09:00 in London; the first common time is 10:00 Berlin, 4:00 AM in New York.
    // Thursday 1 January 00:00 UTC is still December in New York: on to January.
    await page.getByRole('link', { name: /Next month/ }).click();
    await page.getByRole('link', { name: /Monday, January 5/ }).click();
    expect((await page.locator('.times button time').first().textContent())?.trim()).toBe('4:00 AM');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'team-event-type-desktop');
    await page.getByRole('button', { name: 'Choose Monday, January 5, 4:00 AM' }).click();
    await expect.poll(() => page.textContent('h1')).toBe('Your details');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Name').fill('Edsger Dijkstra');
    await page.getByLabel('E-mail').fill('edsger@example.com');
    await page.getByLabel('Company').fill('Mathematisch Centrum');
    await page.getByRole('button', { name: 'Book' }).click();

    await expect.poll(() => page.textContent('h1')).toBe('Your booking is confirmed');
    const bookingId = new URL(page.url()).pathname.split('/manage/')[1]!.split('.')[0]!;
    const [first, second] = await hostNamesOf(bookingId);
    const summary = await page.textContent('.summary');
    expect(summary).toContain(`Team call · with ${first} and ${second}`);
    expect(summary).toContain('Monday, January 5, 4:00 AM–4:30 AM (America/New_York)');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'team-confirmed-desktop');
    expect(
      requests.every((url) => url.startsWith(base)),
      'nothing is loaded from elsewhere',
    ).toBe(true);

    // The manage page's picker for a new time is the team's, and it moves the booking.
    await page.goto(page.url().split('?')[0]!);
    await page.getByRole('link', { name: 'Move to another time' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: /Next month/ }).click();
    await page.getByRole('link', { name: /Tuesday, January 6/ }).click();
    await page.locator('.times button').first().click();
    await expect.poll(() => page.textContent('h1')).toBe('Your booking is confirmed');
    expect(await page.textContent('.summary')).toContain('Tuesday, January 6');
    await context.close();
  });

  it('when a guest on a phone in German with JavaScript off books the round-robin type, then the same path books one host, named on the confirmation', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'de-DE',
      timezoneId: 'Europe/Berlin',
      javaScriptEnabled: false,
    });
    context.setDefaultTimeout(5_000);
    const page = await context.newPage();
    await page.goto(`${base}/team/acme/sales-call`);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    // Without JavaScript: the team's zone (its first host's), named on the page.
    expect(await page.textContent('.zone strong')).toBe('Europe/Berlin');
    expect(await page.textContent('.meta')).toBe('mit Ada Lovelace oder Alan Turing · 30 Min.');
    await shoot(page, 'team-event-type-phone-de');
    const pickerUrl = page.url();

    await page.locator('.times button').first().click();
    await expect.poll(() => page.textContent('h1')).toBe('Ihre Angaben');
    const detailsUrl = page.url();
    await page.getByLabel('Name', { exact: true }).fill('Barbara Liskov');
    await page.getByLabel('E-Mail', { exact: true }).fill('barbara@example.com');
    await page.getByRole('button', { name: 'Buchen' }).click();
    await expect.poll(() => page.textContent('h1')).toBe('Ihre Buchung ist bestätigt');
    const bookingId = new URL(page.url()).pathname.split('/manage/')[1]!.split('.')[0]!;
    const [chosen, ...others] = await hostNamesOf(bookingId);
    expect(others).toEqual([]);
    expect(await page.textContent('.summary')).toContain(`Sales call · mit ${chosen}`);
    await shoot(page, 'team-confirmed-phone-de');
    const confirmedUrl = page.url();
    await context.close();

    // axe runs its script in the page: the same pages, at the same size, with JavaScript on.
    const checking = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'de-DE' });
    checking.setDefaultTimeout(5_000);
    const checked = await checking.newPage();
    for (const url of [pickerUrl, detailsUrl, confirmedUrl]) {
      await checked.goto(url);
      expect(await seriousViolations(checked), url).toEqual([]);
    }
    await checking.close();
  });

  it('when a guest books the team type inside the shop’s frame, then no cookie is used, the shop hears of the booking, and the frame’s confirmation names the hosts', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    context.setDefaultTimeout(5_000);
    const page = await context.newPage();
    await page.goto(shopOrigin);
    const frame: Frame = (await (await page.waitForSelector('#booking')).contentFrame())!;
    await expect.poll(() => frame.url()).not.toBe('about:blank');
    await expect.poll(() => frame.locator('.times button').count()).toBeGreaterThan(0);
    expect(await seriousViolations(frame)).toEqual([]);
    await frame.getByRole('link', { name: /Wednesday, January 7/ }).click();
    await frame.locator('.times button').first().click();
    await expect.poll(() => frame.textContent('h1')).toBe('Your details');
    await frame.getByLabel('Name').fill('Donald Knuth');
    await frame.getByLabel('E-mail').fill('donald@example.com');
    await frame.getByLabel('Company').fill('Stanford');
    await frame.getByRole('button', { name: 'Book' }).click();
    await expect.poll(() => frame.textContent('h1')).toBe('Your booking is confirmed');
    expect(await seriousViolations(frame)).toEqual([]);
    await shoot(page, 'team-embedded-confirmed-desktop');
    type Received = Array<{ origin: string; data: { type: string; booking?: { id: string } } }>;
    const received = () => page.evaluate(() => (window as unknown as { received: Received }).received);
    await expect.poll(async () => (await received()).map((m) => m.data.type)).toContain('slotwise.booking.created');
    const created = (await received()).find((m) => m.data.type === 'slotwise.booking.created')!.data.booking!;
    const [first, second] = await hostNamesOf(created.id);
    expect(await frame.textContent('.summary')).toContain(`Team call · with ${first} and ${second}`);
    expect(await context.cookies()).toEqual([]);
    await context.close();
  });

  it('when the team booking page is loaded, then HTML, CSS and script weigh at most 100 kB', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const load = await pageLoad(page, `${base}/team/acme/team-call?tz=Europe/Berlin`);
    expect(load.paths).toEqual(['/assets/pages.css', '/assets/pages.js', '/team/acme/team-call']);
    expect(load.bytes, load.sizes).toBeLessThanOrEqual(100 * 1024);
    await context.close();
  });
});
