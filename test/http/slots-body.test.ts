// The slots answer is written as bytes; it must be exactly the JSON the string formatters describe.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatUtc, formatWithOffset } from '../../src/domain/instant.js';
import { Zone } from '../../src/domain/zone.js';
import { SlotWriter, slotsAnswer } from '../../src/http/slots-body.js';

const writer = new SlotWriter();
const renderSlots = writer.render.bind(writer);

const slotsBody = (starts: number[], durationMs: number, zone: Zone | undefined) =>
  Buffer.concat(slotsAnswer(renderSlots(starts, durationMs, zone), 0, starts.length));

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  // -00:44:30 until 1972: an offset with seconds, so wall times are not whole minutes.
  'Africa/Monrovia',
];
const MINUTE = 60_000;

const instants = fc.oneof(
  // Whole minutes, the slots' usual shape, from 1970 to 2100.
  fc.integer({ min: 0, max: 68_000_000 }).map((minutes) => minutes * MINUTE),
  // Any millisecond.
  fc.integer({ min: 0, max: 4_102_444_800_000 }),
);

describe('renderSlots and slotsAnswer', () => {
  it('when slots are written without a zone, then the body parses to UTC timestamps exactly as formatUtc gives them', () => {
    fc.assert(
      fc.property(fc.array(instants, { maxLength: 40 }), fc.integer({ min: 1, max: 1440 }), (starts, minutes) => {
        const body = slotsBody(starts, minutes * MINUTE, undefined);
        expect(JSON.parse(body.toString('utf8'))).toEqual({
          data: starts.map((start) => ({ start: formatUtc(start), end: formatUtc(start + minutes * MINUTE) })),
        });
      }),
      { numRuns: 300 },
    );
  });

  it('when slots are written in a zone, then each timestamp carries the offset in force at that instant, exactly as formatWithOffset gives it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.array(instants, { maxLength: 40 }),
        fc.integer({ min: 1, max: 1440 }),
        (zoneId, starts, minutes) => {
          const zone = new Zone(zoneId);
          const format = (instant: number) => formatWithOffset(instant, zone.offsetMsAt(instant));
          const body = slotsBody(starts, minutes * MINUTE, zone);
          expect(JSON.parse(body.toString('utf8'))).toEqual({
            data: starts.map((start) => ({ start: format(start), end: format(start + minutes * MINUTE) })),
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('when the same day is written without a zone and then in the UTC zone, then the first reads Z and the second +00:00', () => {
    // Regression: slot templates cached per day and offset once mixed the two forms up.
    const start = Date.parse('2026-01-05T08:00:00Z');
    expect(slotsBody([start], 30 * MINUTE, undefined).toString()).toContain('"start":"2026-01-05T08:00:00.000Z"');
    expect(slotsBody([start], 30 * MINUTE, new Zone('UTC')).toString()).toContain(
      '"start":"2026-01-05T08:00:00+00:00"',
    );
    expect(slotsBody([start], 30 * MINUTE, undefined).toString()).toContain('"end":"2026-01-05T08:30:00.000Z"');
  });

  it('when an answer is cut out of slots written once, then it is the answer written for just those slots', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(undefined, ...ZONES),
        fc.array(instants, { maxLength: 40 }),
        fc.nat(),
        fc.nat(),
        (zoneId, starts, a, b) => {
          const zone = zoneId === undefined ? undefined : new Zone(zoneId);
          const [first, end] = [a % (starts.length + 1), b % (starts.length + 1)].sort((x, y) => x - y) as [
            number,
            number,
          ];
          const cut = Buffer.concat(slotsAnswer(renderSlots(starts, 30 * MINUTE, zone), first, end));
          expect(cut.toString()).toBe(slotsBody(starts.slice(first, end), 30 * MINUTE, zone).toString());
        },
      ),
      { numRuns: 300 },
    );
  });

  it('when there are no slots, then the body is an empty list', () => {
    expect(slotsBody([], 30 * MINUTE, undefined).toString()).toBe('{"data":[]}');
  });

  it('when a slot starts in Berlin in winter, then it reads as the local wall time with +01:00', () => {
    const start = Date.parse('2026-01-05T08:00:00Z');
    expect(slotsBody([start], 30 * MINUTE, new Zone('Europe/Berlin')).toString()).toBe(
      '{"data":[{"start":"2026-01-05T09:00:00+01:00","end":"2026-01-05T09:30:00+01:00"}]}',
    );
  });
});
