// Whatever text is stored (names written before the API refused control characters, notes with
// line breaks, quotes, carets, backslashes), a calendar file is iCalendar that ical.js reads back
// as the text written: one VEVENT per booking, the guest's name as the attendee's CN and nothing
// else in its parameters, the holder's name as the feed's name. Control characters that
// iCalendar cannot carry (all but tab and line breaks) are left out, and backslashes from the
// CN (no reader agrees on them there); a line break is read as \n.
import fc from 'fast-check';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { Booking } from '../../src/domain/booking.js';
import { calendarFile } from '../../src/http/calendar-files.js';

const RUNS = 300;

/** Mostly the characters that have a meaning somewhere in iCalendar, and any other code point. */
const character = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('"', ';', ':', ',', '\\', '^', "'", 'n', 'N', '=', ' ') },
  { weight: 2, arbitrary: fc.constantFrom('\r', '\n', '\r\n', '\t', '\u0000', '\u001b', '\u007f', '\u0085') },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);
const text = (minLength = 0) => fc.string({ unit: character, minLength, maxLength: 120 });

/** What a reader sees of `written`: line breaks as \n, the control characters iCalendar has no room for left out. */
function asRead(written: string): string {
  return written.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}

/** What a reader sees of a name as an attendee's CN: the same, but for backslashes, which a parameter cannot carry (src/http/calendar-files.ts). */
function asReadInParameter(written: string): string {
  return asRead(written).replace(/\\/g, '');
}

/** A TEXT value as RFC 5545 §3.3.11 reads it, by ical.js's own decoder. */
function readText(raw: unknown): string {
  return ICAL.design.icalendar.value['text']!.fromICAL!(String(raw)) as string;
}

function booking(index: number, fields: Pick<Booking, 'guestName' | 'notes' | 'answers'>): Booking {
  const start = Date.parse('2026-01-05T09:00:00Z') + index * 3_600_000;
  return {
    id: `bkg_${index}`,
    holderId: 'hdr_1',
    hostIds: ['hdr_1'],
    eventTypeId: 'evt_1',
    start,
    end: start + 1_800_000,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    status: 'confirmed',
    guestEmail: 'ada@example.com',
    guestTimeZone: null,
    guestLanguage: 'en',
    cancellationReason: null,
    cancelledAt: null,
    rescheduledFromId: null,
    rescheduledToId: null,
    appointmentId: `bkg_${index}`,
    moves: 0,
    metadata: {},
    source: 'api',
    location: null,
    createdAt: start - 86_400_000,
    updatedAt: start - 86_400_000,
    ...fields,
  };
}

describe('calendarFile: any stored text round-trips through ical.js', () => {
  it('when names, notes and answers hold any characters, then the feed and the booking’s file read back as written', () => {
    fc.assert(
      fc.property(
        fc.record({
          displayName: text(1),
          title: text(1),
          guests: fc.array(fc.record({ guestName: text(1), notes: text(), answer: text() }), {
            minLength: 1,
            maxLength: 3,
          }),
        }),
        ({ displayName, title, guests }) => {
          const bookings = guests.map(({ guestName, notes, answer }, index) =>
            booking(index, { guestName, notes, answers: { agenda: answer } }),
          );
          const content = {
            holders: [{ name: 'alice', displayName }],
            bookings,
            titles: new Map([['evt_1', title]]),
          };

          const feed = new ICAL.Component(ICAL.parse(calendarFile(content, 'holder')));
          // ical.js keeps the properties it does not know (NAME, X-WR-CALNAME) as written.
          expect(readText(feed.getFirstPropertyValue('x-wr-calname'))).toBe(`${asRead(displayName)} (Slotwise)`);
          expect(readText(feed.getFirstPropertyValue('name'))).toBe(`${asRead(displayName)} (Slotwise)`);
          const events = feed.getAllSubcomponents('vevent');
          expect(events.map((event) => event.getFirstPropertyValue('uid'))).toEqual(
            bookings.map((b) => `${b.id}@slotwise`),
          );
          for (const [index, event] of events.entries()) {
            const guest = guests[index]!;
            const cn = asReadInParameter(guest.guestName);
            const attendee = event.getFirstProperty('attendee')!;
            expect(attendee.toJSON()[1]).toEqual({ role: 'REQ-PARTICIPANT', ...(cn === '' ? {} : { cn }) });
            expect(attendee.getFirstValue()).toBe('MAILTO:ada@example.com');
            expect(event.getFirstPropertyValue('summary')).toBe(`${asRead(title)}: ${asRead(guest.guestName)}`);
            const description = [...(guest.notes ? [guest.notes] : []), `agenda: ${guest.answer}`].join('\n');
            expect(event.getFirstPropertyValue('description')).toBe(asRead(description));
          }

          const single = new ICAL.Component(
            ICAL.parse(calendarFile({ ...content, bookings: [bookings[0]!] }, 'guest')),
          );
          const [event, ...others] = single.getAllSubcomponents('vevent');
          expect(others).toEqual([]);
          expect(event!.getFirstPropertyValue('summary')).toBe(`${asRead(title)} with ${asRead(displayName)}`);
          expect(event!.getFirstProperty('attendee')!.getParameter('cn') ?? '').toBe(
            asReadInParameter(guests[0]!.guestName),
          );
        },
      ),
      { numRuns: RUNS },
    );
  });
});
