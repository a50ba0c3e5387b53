// The parser's thread runs the built file (`dist/worker/busy-parser-worker-main.js`), so this test runs
// the built parser, as the server does.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ThreadBusyParser as Parser } from '../../src/worker/thread-busy-parser.js';
import { ROOT, ensureBuilt } from './support.js';

const CALENDAR = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Slotwise test//EN',
  'BEGIN:VEVENT',
  'UID:one@test',
  'DTSTAMP:20260101T000000Z',
  'DTSTART:20260105T090000Z',
  'DTEND:20260105T100000Z',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');
const OWNER = { accountId: 'acc_fixture', holderId: 'hdr_fixture' };
const WINDOW = { start: Date.UTC(2026, 0, 1), end: Date.UTC(2026, 1, 1) };
const LIMITS = { maxEvents: 100, maxIntervals: 100, maxRecurrenceSteps: 1_000 };

let ThreadBusyParser: typeof Parser;

beforeAll(async () => {
  ensureBuilt();
  ({ ThreadBusyParser } = (await import(join(ROOT, 'dist/worker/thread-busy-parser.js'))) as {
    ThreadBusyParser: typeof Parser;
  });
});

/** The parser's thread, if one is running (private: what the idle end changes is only memory). */
const threadOf = (parser: Parser) => (parser as unknown as { worker: unknown }).worker;

describe('ThreadBusyParser', () => {
  it('when nothing was parsed for idleMs, then the thread is ended, and the next parse starts another', async () => {
    const parser = new ThreadBusyParser({ timeoutMs: 10_000, maxHeapMb: 64, idleMs: 100 });
    try {
      const first = await parser.parse(OWNER, [CALENDAR], WINDOW, 'UTC', LIMITS);
      expect(first).toMatchObject({
        ok: true,
        intervals: [{ start: Date.UTC(2026, 0, 5, 9), end: Date.UTC(2026, 0, 5, 10) }],
      });
      expect(threadOf(parser)).toBeDefined();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(threadOf(parser)).toBeUndefined();
      expect(await parser.parse(OWNER, [CALENDAR], WINDOW, 'UTC', LIMITS)).toEqual(first);
    } finally {
      await parser.close();
    }
  });

  it('when parses follow each other within idleMs, then they share one thread', async () => {
    const parser = new ThreadBusyParser({ timeoutMs: 10_000, maxHeapMb: 64, idleMs: 1_000 });
    try {
      await parser.parse(OWNER, [CALENDAR], WINDOW, 'UTC', LIMITS);
      const thread = threadOf(parser);
      await parser.parse(OWNER, [CALENDAR], WINDOW, 'UTC', LIMITS);
      expect(threadOf(parser)).toBe(thread);
    } finally {
      await parser.close();
    }
  });
});
