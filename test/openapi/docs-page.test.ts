// GET /docs: the reference page the service serves itself, offline. The browser half renders it
// in headless Chromium (Debian's `chromium`, driven by playwright-core) and checks that it shows
// the API and that no request left localhost. Without /usr/bin/chromium that half is skipped with
// a message, unless SLOTWISE_REQUIRE_BROWSER=1 (set by .ci/run), which makes it fail instead.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';

const CHROMIUM = process.env.SLOTWISE_CHROMIUM ?? '/usr/bin/chromium';
const BROWSER_AVAILABLE = existsSync(CHROMIUM);
const BROWSER_REQUIRED = process.env.SLOTWISE_REQUIRE_BROWSER === '1';
const SKIP_REASON = `${CHROMIUM} is not installed (Debian: apt-get install -y chromium)`;
if (!BROWSER_AVAILABLE && !BROWSER_REQUIRED) {
  console.warn(
    `\n*** /docs browser test SKIPPED: ${SKIP_REASON}. Set SLOTWISE_REQUIRE_BROWSER=1 to make a missing browser a failure. ***\n`,
  );
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

let h: Harness;
let base: string;

beforeAll(async () => {
  h = await createHarness();
  base = await h.app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await h?.close();
});

describe('GET /docs', () => {
  it('serves the reference page from the installed package, without a key, under a self-only CSP', async () => {
    const page = await fetch(`${base}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toMatch(/https?:|\*/);
    const html = await page.text();
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(references.length).toBeGreaterThan(3);
    for (const reference of references) {
      expect(reference, 'every asset is served by this server').toMatch(/^\/docs\/static\//);
      const asset = await fetch(`${base}${reference}`);
      expect(asset.status, reference).toBe(200);
      await asset.arrayBuffer(); // an unread body would hold the connection open and delay close()
    }
    const initializer = await (await fetch(`${base}/docs/static/swagger-initializer.js`)).text();
    expect(initializer).toContain('validatorUrl: null'); // no badge from the online validator

    const fromDocs = await (await fetch(`${base}/docs/json`)).json();
    const fromApi = await (await fetch(`${base}/api/v1/openapi.json`)).json();
    expect(fromDocs).toEqual(fromApi);
  });

  const title =
    BROWSER_AVAILABLE || BROWSER_REQUIRED
      ? 'renders in headless Chromium: the API title and its operations, with no request off localhost'
      : `renders in headless Chromium — SKIPPED: ${SKIP_REASON}`;
  // Chromium's start and the docs page's scripts, with 20 s for each step it waits for.
  it.skipIf(!BROWSER_AVAILABLE && !BROWSER_REQUIRED)(
    title,
    async () => {
      if (!BROWSER_AVAILABLE)
        throw new Error(`${SKIP_REASON}, and SLOTWISE_REQUIRE_BROWSER=1 requires the browser test`);
      const { chromium } = await import('playwright-core');
      const userDataDir = mkdtempSync(join(tmpdir(), 'slotwise-chromium-'));
      const context = await chromium.launchPersistentContext(userDataDir, {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      try {
        const requested: string[] = [];
        const offHost: string[] = [];
        // Every request of the page passes here: local ones go on, anything else is recorded and aborted.
        await context.route('**/*', async (route) => {
          const url = new URL(route.request().url());
          requested.push(url.href);
          if (
            url.protocol === 'data:' ||
            url.protocol === 'blob:' ||
            LOCAL_HOSTS.has(url.hostname) ||
            LOCAL_HOSTS.has(url.host)
          ) {
            await route.continue();
          } else {
            offHost.push(url.href);
            await route.abort();
          }
        });
        const page = context.pages()[0] ?? (await context.newPage());
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
        });
        page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));

        await page.goto(`${base}/docs`, { waitUntil: 'load', timeout: 20_000 });
        await page.waitForSelector('.opblock', { timeout: 20_000 });
        await page.waitForLoadState('networkidle', { timeout: 20_000 });

        expect(await page.title()).toBe('Slotwise API reference');
        await expect.poll(() => page.locator('.info .title').first().textContent()).toContain('Slotwise API');

        const operations = (
          await page
            .locator('.opblock-summary')
            .evaluateAll((summaries) =>
              summaries.map((s) =>
                `${s.querySelector('.opblock-summary-method')?.textContent ?? ''} ${s.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? ''}`.trim(),
              ),
            )
        ).map((text) => text.replace(/\u200b/g, ''));
        expect(operations).toEqual(
          expect.arrayContaining([
            'POST /api/v1/bookings',
            'GET /api/v1/slots',
            'POST /api/v1/bookings/{id}/reschedule',
            'PUT /api/v1/availability',
            'DELETE /api/v1/webhooks/{id}',
          ]),
        );
        expect(operations.length).toBeGreaterThanOrEqual(21);

        // Interactive: opening an operation shows its parameters and responses.
        const createBooking = page
          .locator('.opblock-post', { has: page.locator('[data-path="/api/v1/bookings"]') })
          .first();
        await createBooking.locator('.opblock-summary').first().click();
        await expect
          .poll(() => createBooking.locator('.opblock-body').first().textContent(), { timeout: 10_000 })
          .toContain('Idempotency-Key');
        const body = (await createBooking.locator('.opblock-body').first().textContent()) ?? '';
        expect(body).toContain('slot-unavailable');

        expect(requested.some((url) => url.endsWith('/docs/json'))).toBe(true);
        expect(offHost, 'requests to hosts other than localhost').toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
        rmSync(userDataDir, { recursive: true, force: true });
      }
    },
    90_000,
  );
});
