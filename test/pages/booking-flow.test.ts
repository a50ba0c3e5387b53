// The booking pages in a real browser (Debian's Chromium, driven by playwright-core): a guest
// books with the mouse, and another with the keyboard only and JavaScript off; axe-core finds no
// serious or critical violation on any page; the pages hold up at 390×844 and 1280×800
// (screenshots are written to SLOTWISE_SCREENSHOTS, when set, to be looked at); and the booking
// page weighs at most 100 kB. Without /usr/bin/chromium the file is skipped with a message,
// unless SLOTWISE_REQUIRE_BROWSER=1 (set by .ci/run), which makes that a failure.
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adaInBerlin, browserGate, CHROMIUM, pageLoad, seriousViolations, shoot } from '../support/browser.js';
import { createHarness, type Harness } from '../support/harness.js';

const RUN = browserGate('booking page browser tests');

let h: Harness;
let base: string;
let browser: Browser;

beforeAll(async () => {
  if (!RUN) return;
  // Thursday 1 January 2026; the holder is open Monday to Friday, 09:00–17:00 in Berlin.
  h = await createHarness({ now: '2026-01-01T00:00:00Z' });
  await adaInBerlin(h, {
    description: 'A first conversation about your project.',
    questions: [
      { id: 'company', label: 'Company', type: 'text', required: true },
      { id: 'size', label: 'Team size', type: 'select', options: ['1–10', '11–50', '51+'] },
      { id: 'terms', label: 'I accept the terms', type: 'checkbox', required: true },
    ],
  });
  base = await h.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await chromium.launch({ executablePath: CHROMIUM });
});

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe.skipIf(!RUN)('the booking pages in Chromium', () => {
  it('when a guest in New York picks a time with the mouse and fills in the form, then the booking is made and confirmed in the guest’s zone, with no accessibility violations on the way', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'en-US',
      timezoneId: 'America/New_York',
    });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));

    await page.goto(`${base}/book/ada-lovelace`);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'holder-desktop');
    await page.getByRole('link', { name: /Intro call/ }).click();
    // The page's script shows the times in the browser's zone at once (the holder's is Berlin),
    await expect.poll(() => page.textContent('.zone strong')).toBe('America/New_York');
    // and another zone chosen from the list at once too.
    await page.selectOption('#tz', 'Asia/Tokyo');
    await expect.poll(() => page.textContent('.zone strong')).toBe('Asia/Tokyo');
    await page.selectOption('#tz', 'America/New_York');
    await expect.poll(() => page.textContent('.zone strong')).toBe('America/New_York');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'event-type-desktop');

    // Monday 5 January, 09:00 in Berlin is 3:00 AM in New York.
    await page.getByRole('link', { name: /Monday, January 5/ }).click();
    await page.getByRole('button', { name: 'Choose Monday, January 5, 3:00 AM' }).click();
    await expect.poll(() => page.textContent('h1')).toBe('Your details');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('E-mail').fill('ada@example.com');
    await page.getByLabel('Company').fill('Analytical Engines');
    await page.getByLabel('11–50').check();
    await page.getByLabel('I accept the terms').check();
    await shoot(page, 'details-desktop');
    await page.getByRole('button', { name: 'Book' }).click();

    await expect.poll(() => page.textContent('h1')).toBe('Your booking is confirmed');
    expect(await page.textContent('.summary')).toContain('Monday, January 5, 3:00 AM–3:30 AM (America/New_York)');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'confirmed-desktop');
    expect(
      requests.every((url) => url.startsWith(base)),
      'nothing is loaded from elsewhere',
    ).toBe(true);
    await context.close();
  });

  it('when a guest uses only the keyboard, on a phone-sized screen, in German, with JavaScript off, then the same path books', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'de-DE',
      timezoneId: 'Europe/Berlin',
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    await page.goto(`${base}/book/ada-lovelace/intro-call`);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    // Without JavaScript: the holder's zone, named on the page.
    expect(await page.textContent('.zone strong')).toBe('Europe/Berlin');
    await shoot(page, 'event-type-phone-de');

    // Tab to the first free time of the first free day and press Enter: no mouse anywhere.
    const firstTime = page.locator('.times button').first();
    const label = await firstTime.getAttribute('aria-label');
    await tabTo(page, (element) => element === label);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.textContent('h1')).toBe('Ihre Angaben');
    await shoot(page, 'details-phone-de');

    await tabTo(page, (_label, id) => id === 'name');
    await page.keyboard.type('Grace Hopper');
    await page.keyboard.press('Tab');
    await page.keyboard.type('grace@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('COBOL Inc.');
    await tabTo(page, (_label, id) => id === 'q_terms');
    await page.keyboard.press('Space');
    await tabTo(page, (text) => text === 'Buchen');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.textContent('h1')).toBe('Ihre Buchung ist bestätigt');
    await shoot(page, 'confirmed-phone-de');
    await context.close();
  });

  it('when two guests, in New York in English and in Berlin in German, book at once across the week Europe moves its clocks, then each sees and gets the holder’s 09:00 in their own clock', async () => {
    // Europe moves its clocks on Sunday 29 March 2026, America did on 8 March: the holder's 09:00
    // in Berlin is 4:00 AM in New York on Friday 27 March and 3:00 AM on Monday 30 March.
    const guests = [
      {
        locale: 'en-US',
        timezoneId: 'America/New_York',
        friday: /^Friday, March 27/,
        monday: /^Monday, March 30/,
        fridayFirst: '4:00 AM',
        mondayFirst: '3:00 AM',
        pick: 'friday' as const,
        labels: { name: 'Name', email: 'E-mail', terms: 'I accept the terms', book: 'Book' },
        confirmed: 'Your booking is confirmed',
        when: 'Friday, March 27, 4:00 AM–4:30 AM (America/New_York)',
        instant: '2026-03-27T08:00:00.000Z',
      },
      {
        locale: 'de-DE',
        timezoneId: 'Europe/Berlin',
        friday: /^Freitag, 27. März/,
        monday: /^Montag, 30. März/,
        fridayFirst: '9:00',
        mondayFirst: '9:00',
        pick: 'monday' as const,
        labels: { name: 'Name', email: 'E-Mail', terms: 'I accept the terms', book: 'Buchen' },
        confirmed: 'Ihre Buchung ist bestätigt',
        when: 'Montag, 30. März, 9:00–9:30 (Europe/Berlin)',
        instant: '2026-03-30T07:00:00.000Z',
      },
    ];
    const booked = await Promise.all(
      guests.map(async (guest, index) => {
        const context = await browser.newContext({ locale: guest.locale, timezoneId: guest.timezoneId });
        context.setDefaultTimeout(5_000);
        const page = await context.newPage();
        // No zone in the address: the page's script moves it to the browser's.
        await page.goto(`${base}/book/ada-lovelace/intro-call?month=2026-03`);
        await expect.poll(() => page.textContent('.zone strong')).toBe(guest.timezoneId);
        const firstTimeOf = async (day: RegExp) => {
          await page.getByRole('link', { name: day }).click();
          return (await page.locator('.times button time').first().textContent())?.trim();
        };
        expect(await firstTimeOf(guest.friday)).toBe(guest.fridayFirst);
        expect(await firstTimeOf(guest.monday)).toBe(guest.mondayFirst);
        await page.getByRole('link', { name: guest.pick === 'friday' ? guest.friday : guest.monday }).click();
        await page.locator('.times button').first().click();
        await page.getByLabel(guest.labels.name, { exact: true }).fill(`Guest ${index}`);
        await page.getByLabel(guest.labels.email, { exact: true }).fill(`guest${index}@example.com`);
        await page.getByLabel('Company').fill('DST Inc.');
        await page.getByLabel(guest.labels.terms).check();
        await page.getByRole('button', { name: guest.labels.book }).click();
        await expect.poll(() => page.textContent('h1')).toBe(guest.confirmed);
        expect(await page.textContent('.summary')).toContain(guest.when);
        expect(await seriousViolations(page)).toEqual([]);
        await shoot(page, `dst-week-${guest.locale}`);
        await context.close();
        return guest.instant;
      }),
    );
    const token = await h.key('Ada Lovelace', ['read']);
    const listed = await h.request({
      method: 'GET',
      url: '/api/v1/bookings?from=2026-03-23T00:00:00Z&to=2026-04-04T00:00:00Z',
      token,
    });
    expect(
      listed
        .json<{ data: Array<{ start: string }> }>()
        .data.map((b) => b.start)
        .sort(),
    ).toEqual(booked.sort());
  });

  it('when a guest opens the manage link, then it can move and cancel the booking there, and every page of it passes axe', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'en-GB',
      timezoneId: 'Europe/London',
    });
    // A step that cannot happen fails in seconds, naming its locator, not at the test's timeout.
    context.setDefaultTimeout(5_000);
    const page = await context.newPage();
    await page.goto(`${base}/book/ada-lovelace/intro-call?tz=Europe/London&date=2026-01-07`);
    await page.locator('.times button').first().click();
    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByLabel('E-mail').fill('grace@example.com');
    await page.getByLabel('Company').fill('Navy');
    await page.getByLabel('I accept the terms').check();
    await page.getByRole('button', { name: 'Book' }).click();
    await expect.poll(() => page.textContent('h1')).toBe('Your booking is confirmed');
    const manage = page.url().split('?')[0]!;

    await page.goto(manage);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'manage-desktop');
    await page.getByRole('link', { name: 'Move to another time' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: /Thursday, January 8/ }).click();
    await page.locator('.times button').nth(2).click();
    await expect.poll(() => page.textContent('h1')).toBe('Your booking is confirmed');
    expect(await page.textContent('.summary')).toContain('Thursday, January 8');
    await shoot(page, 'moved-desktop');

    await page.getByLabel(/Why are you cancelling/).fill('Plans changed');
    await page.getByRole('button', { name: 'Cancel the booking' }).click();
    await expect.poll(() => page.textContent('.notice')).toBe('This booking was cancelled.');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'cancelled-desktop');
    // The first link now shows the booking as moved.
    await page.goto(manage);
    expect(await page.textContent('.notice')).toBe('This booking was moved to another time.');
    await context.close();
  });

  it('when two guests pick the same time, then the second is told and picks another, and hostile text stays text', async () => {
    const first = await browser.newContext({ locale: 'en-US', timezoneId: 'Europe/Berlin' });
    const second = await browser.newContext({ locale: 'en-US', timezoneId: 'Europe/Berlin' });
    const one = await first.newPage();
    const two = await second.newPage();
    const url = `${base}/book/ada-lovelace/intro-call?tz=Europe/Berlin&date=2026-01-09`;
    await one.goto(url);
    await two.goto(url);
    await one.locator('.times button').first().click();
    await expect.poll(() => one.textContent('h1')).toBe('Your details');
    await two.locator('.times button').first().click();
    await expect.poll(() => two.textContent('.notice')).toBe('Sorry, that time was just taken. Please choose another.');
    expect(await seriousViolations(two)).toEqual([]);

    // A hostile name and answer come back as text in the form, and nothing runs.
    let dialogs = 0;
    one.on('dialog', async (dialog) => {
      dialogs++;
      await dialog.dismiss();
    });
    await one.getByLabel('Name').fill('<img src=x onerror=alert(1)>');
    await one.getByLabel('E-mail').fill('not an address');
    await one.getByLabel('Company').fill('<script>alert(2)</script>');
    await one.getByRole('button', { name: 'Book' }).click();
    await expect.poll(() => one.textContent('#email-error')).toBe('Please enter an e-mail address.');
    expect(await one.inputValue('#name')).toBe('<img src=x onerror=alert(1)>');
    expect(await one.locator('img').count()).toBe(0);
    expect(dialogs).toBe(0);
    expect(await seriousViolations(one)).toEqual([]);
    await shoot(one, 'form-errors-desktop');
    await first.close();
    await second.close();
  });

  it('when the booking page is loaded, then HTML, CSS and script weigh at most 100 kB', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // With the zone given, the script has no reason to reload the page in the browser's zone.
    const load = await pageLoad(page, `${base}/book/ada-lovelace/intro-call?tz=Europe/Berlin`);
    expect(load.paths).toEqual(['/assets/pages.css', '/assets/pages.js', '/book/ada-lovelace/intro-call']);
    expect(load.bytes, load.sizes).toBeLessThanOrEqual(100 * 1024);
    await context.close();
  });
});

/**
 * Presses Tab until the focused element matches (by its aria-label or text, or its id); fails
 * after 200 presses.
 */
async function tabTo(page: Page, matches: (labelOrText: string | null, id: string) => boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      return {
        label: element?.getAttribute('aria-label') ?? element?.textContent?.trim() ?? null,
        id: element?.id ?? '',
      };
    });
    if (matches(focused.label, focused.id)) return;
  }
  throw new Error('the element was never focused');
}
