// Properties of busyFromICalendar. Generated DAILY and WEEKLY rules (INTERVAL, BYDAY, COUNT,
// UNTIL or open-ended, EXDATEs) in zones of both hemispheres, starting around their changes, are
// checked against an expansion written here with Temporal alone: local dates stepped by hand,
// each placed in its zone with the `compatible` disambiguation (RFC 5545's). And text cut and
// scrambled from the fixtures never throws and always answers in shape, quickly.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { busyFromICalendar, type BusyLimits } from '../../src/domain/busy-time.js';
import type { Interval } from '../../src/domain/intervals.js';
import { cpuMsSince } from '../support/cpu-time.js';

// About two seconds each.
const RUNS = 150;
const LIMITS: BusyLimits = { maxEvents: 1_000, maxIntervals: 100_000, maxRecurrenceSteps: 1_000_000 };
const MIN = 60_000;
const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'Australia/Sydney',
  'Asia/Kolkata',
  'America/Santiago',
  'Pacific/Auckland',
  'Europe/London',
];
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

interface Rule {
  zone: string;
  freq: 'DAILY' | 'WEEKLY';
  interval: number;
  /** Local start, on a day between mid-2025 and late 2026. */
  start: Temporal.PlainDateTime;
  durationMinutes: number;
  /** Weekdays (0 = Monday) besides the start's own; none for a DAILY rule without BYDAY. */
  byDay: number[] | undefined;
  end: { count: number } | { untilDays: number } | undefined;
  /** Which reference occurrences to exclude (by position), and whether as UTC or local values. */
  excluded: number[];
  excludeInUtc: boolean;
  window: { fromDays: number; days: number };
}

// Hours 0–3 over-represented: the changes of these zones happen then.
const hour = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 23 }));
const rule: fc.Arbitrary<Rule> = fc
  .record({
    zone: fc.constantFrom(...ZONES),
    freq: fc.constantFrom<'DAILY' | 'WEEKLY'>('DAILY', 'WEEKLY'),
    interval: fc.integer({ min: 1, max: 3 }),
    startDay: fc.integer({ min: 0, max: 520 }),
    hour,
    minute: fc.constantFrom(0, 15, 30, 45),
    durationMinutes: fc.integer({ min: 15, max: 600 }),
    byDay: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { maxLength: 6 }), { nil: undefined }),
    end: fc.option(
      fc.oneof(
        fc.record({ count: fc.integer({ min: 1, max: 40 }) }),
        fc.record({ untilDays: fc.integer({ min: 0, max: 300 }) }),
      ),
      { nil: undefined },
    ),
    excluded: fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 6 }),
    excludeInUtc: fc.boolean(),
    window: fc.record({ fromDays: fc.integer({ min: -30, max: 500 }), days: fc.integer({ min: 1, max: 200 }) }),
  })
  .map(({ startDay, hour: h, minute, freq, byDay, ...rest }) => ({
    ...rest,
    freq,
    start: Temporal.PlainDate.from('2025-06-01').add({ days: startDay }).toPlainDateTime({ hour: h, minute }),
    // A WEEKLY rule always names its weekdays (ical.js would take the start's alone).
    byDay: freq === 'WEEKLY' ? (byDay ?? []) : byDay,
  }));

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const basic = (t: Temporal.PlainDateTime) =>
  `${pad(t.year, 4)}${pad(t.month)}${pad(t.day)}T${pad(t.hour)}${pad(t.minute)}${pad(t.second)}`;
const basicUtc = (instant: number) => `${new Date(instant).toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
const instantOf = (local: Temporal.PlainDateTime, zone: string) =>
  local.toZonedDateTime(zone, { disambiguation: 'compatible' }).epochMilliseconds;

/** The weekdays (0 = Monday) a rule allows, its start's always among them. */
function weekdaysOf(r: Rule): Set<number> | undefined {
  return r.byDay === undefined ? undefined : new Set([...r.byDay, r.start.dayOfWeek - 1]);
}

/** UNTIL: local noon (no zone changes then) `untilDays` after the start, in UTC. */
function untilOf(r: Rule): number | undefined {
  if (r.end === undefined || !('untilDays' in r.end)) return undefined;
  return instantOf(r.start.toPlainDate().add({ days: r.end.untilDays }).toPlainDateTime({ hour: 12 }), r.zone);
}

/** The rule's occurrences (local starts) up to `last` (an instant), by hand. DTSTART is always one, even past UNTIL. */
function referenceStarts(r: Rule, last: number): Temporal.PlainDateTime[] {
  const weekdays = weekdaysOf(r);
  const until = untilOf(r);
  const count = r.end !== undefined && 'count' in r.end ? r.end.count : Infinity;
  const starts: Temporal.PlainDateTime[] = [];
  const time = r.start.toPlainTime();
  const startDate = r.start.toPlainDate();
  // WEEKLY periods are weeks from Monday (WKST=MO), every INTERVAL-th counted from the start's week.
  const firstMonday = startDate.subtract({ days: startDate.dayOfWeek - 1 });
  for (let day = 0; ; day++) {
    const date = startDate.add({ days: day });
    let member: boolean;
    if (r.freq === 'DAILY') member = day % r.interval === 0;
    else member = Math.floor(date.since(firstMonday).days / 7) % r.interval === 0;
    if (weekdays !== undefined) member &&= weekdays.has(date.dayOfWeek - 1);
    if (!member) continue;
    const local = date.toPlainDateTime(time);
    const instant = instantOf(local, r.zone);
    if ((until !== undefined && instant > until && day > 0) || starts.length >= count || instant > last) return starts;
    starts.push(local);
  }
}

function merged(intervals: Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const interval of [...intervals].sort((a, b) => a.start - b.start)) {
    const previous = out[out.length - 1];
    if (previous !== undefined && interval.start <= previous.end) previous.end = Math.max(previous.end, interval.end);
    else out.push({ ...interval });
  }
  return out;
}

function scenario(r: Rule) {
  const from = instantOf(Temporal.PlainDateTime.from('2025-06-01T00:00').add({ days: r.window.fromDays }), 'UTC');
  const to = from + r.window.days * 1_440 * MIN;
  const starts = referenceStarts(r, to);
  const excluded = new Set(r.excluded.filter((i) => i < starts.length).map((i) => starts[i]!.toString()));
  const kept = starts.filter((start) => !excluded.has(start.toString()));
  const expected = merged(
    kept
      .map((local) => instantOf(local, r.zone))
      .map((start) => ({ start, end: start + r.durationMinutes * MIN }))
      .filter((interval) => interval.end > from && interval.start < to)
      .map((interval) => ({ start: Math.max(interval.start, from), end: Math.min(interval.end, to) })),
  );
  const parts = [`FREQ=${r.freq}`, `INTERVAL=${r.interval}`];
  const weekdays = weekdaysOf(r);
  if (weekdays !== undefined) parts.push(`BYDAY=${[...weekdays].map((d) => WEEKDAYS[d]).join(',')}`);
  if (r.end !== undefined && 'count' in r.end) parts.push(`COUNT=${r.end.count}`);
  const until = untilOf(r);
  if (until !== undefined) parts.push(`UNTIL=${basicUtc(until)}`);
  const exdates = [...excluded].map((local) => Temporal.PlainDateTime.from(local));
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'BEGIN:VEVENT',
    'UID:generated',
    `DTSTART;TZID=${r.zone}:${basic(r.start)}`,
    `DURATION:PT${r.durationMinutes}M`,
    `RRULE:${parts.join(';')}`,
    ...(exdates.length === 0
      ? []
      : r.excludeInUtc
        ? [`EXDATE:${exdates.map((local) => basicUtc(instantOf(local, r.zone))).join(',')}`]
        : [`EXDATE;TZID=${r.zone}:${exdates.map(basic).join(',')}`]),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return { text: lines.join('\r\n'), from, to, expected };
}

const show = (intervals: Interval[]) =>
  intervals.map((i) => `${new Date(i.start).toISOString()}–${new Date(i.end).toISOString()}`);

describe('busyFromICalendar properties', () => {
  it('when a generated DAILY or WEEKLY rule is read, then its busy time is the one a Temporal expansion by hand gives', () => {
    fc.assert(
      fc.property(rule, (r) => {
        const { text, from, to, expected } = scenario(r);
        // The holder's zone is never the rule's: only the TZID may decide.
        const result = busyFromICalendar(text, { start: from, end: to }, 'Asia/Tokyo', LIMITS);
        expect(result.ok, text).toBe(true);
        if (!result.ok) return;
        expect(show(result.intervals), text).toEqual(show(expected));
      }),
      { numRuns: RUNS },
    );
  });

  const FIXTURES = ['google-secret.ics', 'outlook-exchange.ics', 'apple-icloud.ics'].map((name) =>
    readFileSync(join(import.meta.dirname, '../fixtures/calendars', name), 'utf8'),
  );

  type Edit =
    | { kind: 'drop' | 'repeat'; at: number }
    | { kind: 'cut'; at: number; keep: number }
    | { kind: 'swap'; at: number; other: number }
    | { kind: 'scramble'; at: number; text: string };

  // Edits of a calendar's lines: drop, repeat, cut short, swap two, or put characters into one.
  const edit: fc.Arbitrary<Edit> = fc.oneof(
    fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('repeat' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), keep: fc.nat() }),
    fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), other: fc.nat() }),
    fc.record({ kind: fc.constant('scramble' as const), at: fc.nat(), text: fc.string({ maxLength: 12 }) }),
  );

  function edited(text: string, edits: Edit[]): string {
    const lines = text.split(/\r?\n/);
    for (const e of edits) {
      if (lines.length === 0) break;
      const at = e.at % lines.length;
      const line = lines[at]!;
      if (e.kind === 'drop') lines.splice(at, 1);
      else if (e.kind === 'repeat') lines.splice(at, 0, line);
      else if (e.kind === 'cut') lines[at] = line.slice(0, e.keep % (line.length + 1));
      else if (e.kind === 'swap') {
        const other = e.other % lines.length;
        [lines[at], lines[other]] = [lines[other]!, line];
      } else if (e.kind === 'scramble')
        lines[at] = `${line.slice(0, line.length >> 1)}${e.text}${line.slice(line.length >> 1)}`;
    }
    return lines.join('\r\n');
  }

  it('when an export is cut and scrambled, then the answer is an error or sorted, disjoint intervals inside the window, never a throw, quickly', () => {
    const from = Date.parse('2026-02-01T00:00Z');
    const to = Date.parse('2026-06-01T00:00Z');
    fc.assert(
      fc.property(fc.constantFrom(...FIXTURES), fc.array(edit, { minLength: 1, maxLength: 8 }), (text, edits) => {
        const started = process.cpuUsage();
        const result = busyFromICalendar(edited(text, edits), { start: from, end: to }, 'Europe/Berlin', LIMITS);
        expect(cpuMsSince(started)).toBeLessThan(1_000);
        if (!result.ok) {
          expect(result.error).toMatch(/^the calendar /);
          return;
        }
        for (const [i, interval] of result.intervals.entries()) {
          expect(interval.start).toBeGreaterThanOrEqual(from);
          expect(interval.end).toBeLessThanOrEqual(to);
          expect(interval.end).toBeGreaterThan(interval.start);
          if (i > 0) expect(interval.start).toBeGreaterThan(result.intervals[i - 1]!.end);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
