/**
 * `npm run bench:engine`: the pure slot engine alone, across range lengths and booking counts,
 * to show that its cost grows linearly with both (time per slot and per booking stays flat).
 */
import { Zone } from '../src/domain/zone.js';
import { compileAvailability, defaultAvailability, normalizeAvailability } from '../src/domain/availability.js';
import { slotStarts, type Occupancy, type SlotContext } from '../src/domain/slots.js';

const DAY = 86_400_000;
const START = Date.UTC(2026, 2, 2); // a Monday; 62 days include the Berlin DST change of 2026-03-29
const week = [
  { start: '09:00', end: '12:00' },
  { start: '13:00', end: '17:00' },
];
const normalized = normalizeAvailability({
  ...defaultAvailability(),
  timeZone: 'Europe/Berlin',
  weekly: { monday: week, tuesday: week, wednesday: week, thursday: week, friday: week, saturday: [], sunday: [] },
});
if (!normalized.ok) throw new Error('bad availability');
const availability = compileAvailability(normalized.value, new Zone(normalized.value.timeZone));

function bookings(count: number, days: number): Occupancy[] {
  return Array.from({ length: count }, (_, i) => {
    const start = START + Math.floor((i * days * DAY) / Math.max(count, 1));
    return {
      eventTypeId: i % 3 === 0 ? 'e' : 'other',
      start,
      occupiedStart: start - 600_000,
      occupiedEnd: start + 1_800_000 + 600_000,
    };
  });
}

console.log('Work units = grid candidates (slots listed with no bookings) + bookings; ns/unit should stay flat.');
console.log('days  bookings  candidates  listed  µs/query  ns/unit');
for (const days of [1, 7, 31, 62]) {
  let candidates = 0;
  for (const count of [0, 100, 1000]) {
    const context: SlotContext = {
      availability,
      eventTypeId: 'e',
      policy: {
        durationMinutes: 30,
        slotIntervalMinutes: 15,
        bufferBeforeMinutes: 10,
        bufferAfterMinutes: 10,
        minimumNoticeMinutes: 0,
        bookingWindowDays: null,
        maxBookingsPerDay: 8,
      },
      bookings: bookings(count, days),
      now: START - DAY,
    };
    let slots = 0;
    for (let i = 0; i < 50; i++) slots = slotStarts(context, START, START + days * DAY).length; // warm-up
    if (count === 0) candidates = slots;
    const runs = Math.max(20, Math.round(20_000 / days));
    const began = performance.now();
    for (let i = 0; i < runs; i++) slotStarts(context, START + (i % 60) * 60_000, START + days * DAY);
    const micros = ((performance.now() - began) * 1000) / runs;
    const units = candidates + count;
    console.log(
      `${String(days).padStart(4)}  ${String(count).padStart(8)}  ${String(candidates).padStart(10)}  ${String(slots).padStart(6)}  ${micros.toFixed(1).padStart(8)}  ${((micros * 1000) / units).toFixed(0).padStart(7)}`,
    );
  }
}
