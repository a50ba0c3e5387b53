// A booking page embedded in another site, in a real browser (Debian's Chromium, driven by
// playwright-core): a shop at http://localhost:<port> frames the page served at
// http://127.0.0.1:<port>, two different sites, so the frame is a third-party context. The guest
// books inside the frame without a single cookie; the shop hears of the booking by postMessage,
// and nobody else does; a site not in PUBLIC_EMBED_ORIGINS gets no page in its frame; the manage
// link opens outside the frame. axe runs inside the frame; screenshots go to SLOTWISE_SCREENSHOTS.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adaInBerlin, browserGate, CHROMIUM, seriousViolations, shoot } from '../support/browser.js';
import { createHarness, type Harness } from '../support/harness.js';

const RUN = browserGate('embedding browser tests');

let h: Harness;
let base: string;
let browser: Browser;
/** The shop that may embed the page, and a site that may not. */
let shop: Server;
let stranger: Server;
let shopOrigin: string;
let strangerOrigin: string;

/** A site whose page frames `src` and keeps every message its window receives. */
function site(src: () => string): Server {
  return createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><title>Shop</title></head><body>
<h1>Our shop</h1>
<iframe id="booking" title="Book a call" src="${src()}" style="width:100%;height:900px;border:0"></iframe>
<script>
window.received = [];
window.addEventListener('message', function (event) { window.received.push({ origin: event.origin, data: event.data }); });
</script></body></html>`);
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://localhost:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  if (!RUN) return;
  const framed = () => `${base}/book/ada-lovelace/intro-call?embed=1&month=2026-01`;
  shop = site(framed);
  stranger = site(framed);
  shopOrigin = await listen(shop);
  strangerOrigin = await listen(stranger);
  h = await createHarness({ now: '2026-01-01T00:00:00Z', embedOrigins: [shopOrigin] });
  await adaInBerlin(h);
  base = await h.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await chromium.launch({ executablePath: CHROMIUM });
});

afterAll(async () => {
  await browser?.close();
  await h?.close();
  shop?.close();
  stranger?.close();
});

type Received = Array<{ origin: string; data: { type: string; booking?: { id: string; start: string } } }>;
const received = (page: Page) => page.evaluate(() => (window as unknown as { received: Received }).received);

/** The frame once it shows a page of ours (or the browser's error page, when it refused to frame it). */
async function bookingFrame(page: Page): Promise<Frame> {
  const frame = await (await page.waitForSelector('#booking')).contentFrame();
  await expect.poll(() => frame!.url()).not.toBe('about:blank');
  return frame!;
}

describe.skipIf(!RUN)('a booking page embedded in another site, in Chromium', () => {
  for (const viewport of [
    { width: 1280, height: 800, name: 'desktop' },
    { width: 390, height: 844, name: 'phone' },
  ]) {
    it(`when a guest books inside the shop’s frame (${viewport.name}), then no cookie is used, the shop hears of the booking, and the manage link opens outside the frame`, async () => {
      const context = await browser.newContext({
        viewport,
        locale: 'en-US',
        timezoneId: 'America/New_York',
      });
      context.setDefaultTimeout(5_000);
      const page = await context.newPage();
      await page.goto(shopOrigin);
      const frame = await bookingFrame(page);
      // The page's script moves the times to the browser's zone inside the frame too.
      await expect.poll(() => frame.textContent('.zone strong')).toBe('America/New_York');
      expect(await frame.locator('footer').count()).toBe(0);
      expect(await seriousViolations(frame)).toEqual([]);
      await shoot(page, `embedded-picker-${viewport.name}`);
      await frame.getByRole('link', { name: /Tuesday, January 6/ }).click();
      await frame.locator('.times button').first().click();
      await expect.poll(() => frame.textContent('h1')).toBe('Your details');
      await frame.getByLabel('Name').fill('Ada Lovelace');
      await frame.getByLabel('E-mail').fill('ada@example.com');
      await frame.getByRole('button', { name: 'Book' }).click();
      await expect.poll(() => frame.textContent('h1')).toBe('Your booking is confirmed');
      expect(await seriousViolations(frame)).toEqual([]);
      await shoot(page, `embedded-confirmed-${viewport.name}`);

      // The shop heard, from the booking page's origin, which booking was made (and how tall the page is).
      await expect
        .poll(async () => (await received(page)).map((m) => m.data.type))
        .toContain('slotwise.booking.created');
      const messages = await received(page);
      expect(new Set(messages.map((m) => m.origin))).toEqual(new Set([base]));
      expect(messages.some((m) => m.data.type === 'slotwise.page.height')).toBe(true);
      const created = messages.find((m) => m.data.type === 'slotwise.booking.created')!.data.booking!;
      const token = await h.key('Ada Lovelace', ['read']);
      const booking = await h.request({ method: 'GET', url: `/api/v1/bookings/${created.id}`, token });
      expect(booking.json<{ source: string; start: string }>()).toMatchObject({ source: 'page', start: created.start });
      // Not one cookie, for either site: the frame kept its session in its links and forms.
      expect(await context.cookies()).toEqual([]);

      // The manage page opens in a window of its own (it may never be framed).
      const [opened] = await Promise.all([
        context.waitForEvent('page'),
        frame.getByRole('link', { name: 'Open your booking in a new window' }).click(),
      ]);
      await opened.waitForLoadState();
      expect(new URL(opened.url()).pathname).toMatch(/^\/manage\//);
      expect(await opened.textContent('h1')).toBe('Intro call');
      await context.close();
    });
  }

  it('when a site not in PUBLIC_EMBED_ORIGINS frames the page, then the browser shows it nothing and it hears nothing', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (message) => refused.push(message.text()));
    await page.goto(strangerOrigin);
    const frame = await bookingFrame(page);
    expect(frame.url()).not.toContain('/book/');
    await expect.poll(() => refused.some((text) => text.includes('frame-ancestors'))).toBe(true);
    expect(await received(page)).toEqual([]);
    await context.close();
  });
});
