// The guest's HTML e-mail (contract §16) in Chromium, served from 127.0.0.1 as a page: English
// and German, on a phone and a desktop, nothing wider than the screen; and a host's e-mail of a
// seated occurrence, every seat's guest listed. Screenshots to SLOTWISE_SCREENSHOTS
// (email-guest-<lang>-<width>, email-host-occurrence-<width>).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuestLanguage } from '../../src/domain/booking.js';
import { bookingEmail } from '../../src/worker/booking-email.js';
import { browserGate, CHROMIUM, shoot } from '../support/browser.js';
import { emailInput } from '../support/booking-emails.js';

const RUN = browserGate('booking e-mail browser tests');
let browser: Browser;
let server: Server;
let base: string;
/** The HTML the next request is answered with. */
let shown = '';

beforeAll(async () => {
  if (!RUN) return;
  browser = await chromium.launch({ executablePath: CHROMIUM });
  server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(shown));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

const CASES: Array<{ locale: GuestLanguage; zone: string; width: number; height: number; lead: string }> = [
  { locale: 'en', zone: 'America/New_York', width: 390, height: 844, lead: 'Your booking is confirmed.' },
  { locale: 'en', zone: 'America/New_York', width: 1280, height: 800, lead: 'Your booking is confirmed.' },
  { locale: 'de', zone: 'Europe/Berlin', width: 390, height: 844, lead: 'Ihre Buchung ist bestätigt.' },
  { locale: 'de', zone: 'Europe/Berlin', width: 1280, height: 800, lead: 'Ihre Buchung ist bestätigt.' },
];

describe.skipIf(!RUN)('the guest’s booking e-mail in Chromium', () => {
  it.each(CASES)(
    'when a $locale guest opens it $width px wide, then it reads whole, no wider than the screen',
    async (c) => {
      const message = bookingEmail(
        emailInput({
          recipient: {
            role: 'guest',
            name: 'Grace Hopper',
            email: 'grace@example.com',
            zone: c.zone,
            locale: c.locale,
          },
        }),
      );
      const context = await browser.newContext({
        viewport: { width: c.width, height: c.height },
        javaScriptEnabled: false,
      });
      context.setDefaultTimeout(5_000);
      const page = await context.newPage();
      shown = String(message.html);
      await page.goto(base);
      expect(await page.textContent('h1')).toBe(c.lead);
      expect(await page.getByRole('link', { name: /booking|Buchung/ }).getAttribute('href')).toBe(
        'https://slotwise.example/manage/bkg_1.token',
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(c.width);
      await shoot(page, `email-guest-${c.locale}-${c.width}`);
      await context.close();
    },
  );

  it.each([390, 1280])(
    'when the host of a seated occurrence opens its invitation %i px wide, then every seat’s guest is listed, no wider than the screen',
    async (width) => {
      const seats = [
        { name: 'Grace Hopper', email: 'grace@example.com' },
        { name: 'Alan Turing', email: 'alan@example.com' },
        { name: 'Edsger <b>Dijkstra</b>', email: 'edsger@example.com' },
      ];
      const input = emailInput({
        title: 'Compiler workshop',
        recipient: {
          role: 'host',
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          zone: 'Europe/London',
          locale: 'en',
        },
        uid: `evt_1.${Date.parse('2026-01-05T09:00:00Z')}@slotwise`,
        seats,
      });
      // A host's message has no guest's link (the worker gives it none).
      delete input.manageUrl;
      const message = bookingEmail(input);
      const context = await browser.newContext({ viewport: { width, height: 844 }, javaScriptEnabled: false });
      context.setDefaultTimeout(5_000);
      const page = await context.newPage();
      shown = String(message.html);
      await page.goto(base);
      expect(await page.textContent('h1')).toBe('You have a new booking.');
      const guests = await page.locator('th:text-is("Guest") + td').allTextContents();
      expect(guests).toEqual(seats.map((seat) => `${seat.name} <${seat.email}>`));
      // One guest's notes and answers are not the occurrence's: the host's message shows none.
      expect(await page.locator('body').textContent()).not.toContain('COBOL');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shoot(page, `email-host-occurrence-${width}`);
      await context.close();
    },
  );
});
