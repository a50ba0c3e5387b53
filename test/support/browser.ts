// What the browser tests share: Debian's Chromium (driven by playwright-core), the rule for a
// missing one (skipped with a message, or a failure with SLOTWISE_REQUIRE_BROWSER=1, as .ci/run
// sets), axe-core's serious and critical violations, and screenshots to SLOTWISE_SCREENSHOTS.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { expect } from 'vitest';
import { putWeekdays } from '../http/helpers.js';
import type { Harness } from './harness.js';

export const CHROMIUM = process.env.SLOTWISE_CHROMIUM ?? '/usr/bin/chromium';

/** Whether the browser tests of `what` run here; says why when they are skipped. */
export function browserGate(what: string): boolean {
  const run = existsSync(CHROMIUM) || process.env.SLOTWISE_REQUIRE_BROWSER === '1';
  if (!run) console.warn(`\n*** ${what} SKIPPED: ${CHROMIUM} is not installed ***\n`);
  return run;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations on the page or frame (run through the DevTools
 * protocol, which the page's CSP does not govern), as `rule (nodes)`.
 */
export async function seriousViolations(target: Page | Frame): Promise<string[]> {
  await target.evaluate(AXE_SOURCE);
  const result = await target.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> };
      }
    ).axe;
    return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes})`);
}

/** A full-page screenshot to SLOTWISE_SCREENSHOTS/<name>.png, when that is set (to be looked at). */
export async function shoot(page: Page, name: string): Promise<void> {
  const folder = process.env.SLOTWISE_SCREENSHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`), fullPage: true });
}

/**
 * The holder the browser tests book with: Ada Lovelace (`/book/ada-lovelace`), open Monday to
 * Friday, 09:00–17:00 in Berlin, with a public 30-minute "Intro call" of the given extra fields.
 */
export async function adaInBerlin(h: Harness, eventType: Record<string, unknown> = {}): Promise<void> {
  const token = await h.key('Ada Lovelace');
  await putWeekdays(h, token, 'Europe/Berlin', [{ start: '09:00', end: '17:00' }]);
  const created = await h.request({
    method: 'POST',
    url: '/api/v1/event-types',
    token,
    json: { title: 'Intro call', durationMinutes: 30, public: true, ...eventType },
  });
  expect(created.statusCode, created.body).toBe(201);
}

/** What loading `url` fetches (but the browser's own favicon request): each path once, with its bytes. */
export async function pageLoad(page: Page, url: string): Promise<{ bytes: number; paths: string[]; sizes: string }> {
  let bytes = 0;
  const sizes: string[] = [];
  const measured: Array<Promise<void>> = [];
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    // What the page is made of; the browser's own favicon request is not the page's.
    if (path === '/favicon.ico') return;
    measured.push(
      response.body().then((body) => {
        bytes += body.length;
        sizes.push(`${path} ${body.length}`);
      }),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await Promise.all(measured);
  return { bytes, paths: sizes.map((size) => size.split(' ')[0]!).sort(), sizes: sizes.join(', ') };
}
