// Seats on a booking page (contract §15) in a real browser (Debian's Chromium, driven by
// playwright-core): each time of a seated type says how many seats are left, a guest on a phone
// with JavaScript off books one of them, and the page then says one fewer; axe-core finds no
// serious or critical violation. Screenshots go to SLOTWISE_SCREENSHOTS, when set. Without
// /usr/bin/chromium the file is skipped with a message, unless SLOTWISE_REQUIRE_BROWSER=1.
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book, createEventType, putWeekdays } from '../http/helpers.js';
import { browserGate, CHROMIUM, seriousViolations, shoot } from '../support/browser.js';
import { createHarness, type Harness } from '../support/harness.js';

const RUN = browserGate('seat booking page browser tests');

let h: Harness;
let base: string;
let browser: Browser;

beforeAll(async () => {
  if (!RUN) return;
  h = await createHarness({ now: '2026-01-01T00:00:00Z' });
  const token = await h.key('alice');
  await putWeekdays(h, token, 'Europe/Berlin', [{ start: '09:00', end: '12:00' }]);
  const workshop = await createEventType(h, token, {
    title: 'Pottery workshop',
    slug: 'pottery',
    durationMinutes: 60,
    seats: 4,
    public: true,
  });
  // Monday 5 January, 10:00 in Berlin: one seat taken already.
  await book(h, token, workshop.id, '2026-01-05T09:00:00Z');
  base = await h.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await chromium.launch({ executablePath: CHROMIUM });
});

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe.skipIf(!RUN)('a seated event type’s booking page in Chromium', () => {
  it('when a guest on a phone with JavaScript off books a seat, then the time said how many seats were left before, and says one fewer after', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'en-GB',
      timezoneId: 'Europe/Berlin',
      javaScriptEnabled: false,
    });
    context.setDefaultTimeout(5_000);
    const page = await context.newPage();
    const picker = `${base}/book/alice/pottery?date=2026-01-05&tz=Europe/Berlin`;
    await page.goto(picker);
    const ten = page.locator('.times li', { hasText: '10:00' });
    expect(await ten.textContent()).toContain('3 seats left');
    expect(await page.locator('.times li', { hasText: '9:00' }).first().textContent()).toContain('4 seats left');
    await shoot(page, 'seats-phone');
    await ten.locator('button').click();
    await expect.poll(() => page.textContent('h1')).toBe('Your details');
    await page.getByLabel('Name', { exact: true }).fill('Barbara Liskov');
    await page.getByLabel('E-mail', { exact: true }).fill('barbara@example.com');
    await page.getByRole('button', { name: 'Book' }).click();
    await expect.poll(() => page.textContent('h1')).toBe('Your booking is confirmed');
    await page.goto(picker);
    expect(await page.locator('.times li', { hasText: '10:00' }).textContent()).toContain('2 seats left');
    await context.close();

    const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const checked = await desktop.newPage();
    await checked.goto(picker);
    expect(await seriousViolations(checked)).toEqual([]);
    await shoot(checked, 'seats-desktop');
    await desktop.close();
  });
});
