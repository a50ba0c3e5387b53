/**
 * `npm run bench:engine`: the pure slot engine alone, across range lengths and booking counts,
 * to show that its cost grows linearly with both (time per slot and per booking stays flat); then
 * the combination of hosts' starts for team event types.
 */
import { Zone } from '../src/domain/zone.js';
import { compileAvailability, defaultAvailability, normalizeAvailability } from '../src/domain/availability.js';
import { slotStarts, standingSlotStarts, type Occupancy, type SlotContext } from '../src/domain/slots.js';
import {
  teamStandingStarts,
  type CountedBooking,
  type HostStarts,
  type TeamDailyCap,
} from '../src/domain/team-slots.js';

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

// Team event types (contract §14): each host's standing starts come from the engine above; what a
// team adds is their combination. Hosts in three zones, each with 100 bookings of its own, and the
// team type's bookings (5 a day, 8 on every fourth day: those days are full under a cap of 8),
// each occupying one host (round robin) or all of them (collective): the cap reads every host's
// occupancies and counts each booking once.
const TEAM_ZONES = ['Europe/Berlin', 'Europe/London', 'America/New_York'];
const teamPolicy = {
  durationMinutes: 30,
  slotIntervalMinutes: 15,
  bufferBeforeMinutes: 10,
  bufferAfterMinutes: 10,
  minimumNoticeMinutes: 0,
  bookingWindowDays: null,
  maxBookingsPerDay: null,
};
const zonesOfTeam = new Map(TEAM_ZONES.map((id) => [id, new Zone(id)]));
const teamDays = 62;
// The week of the hosts above, in each host's own zone.
const teamWeek = normalized.value;

function teamHosts(count: number, collective: boolean): { hosts: HostStarts[]; cap: TeamDailyCap } {
  const typeBookings: Array<Occupancy & { id: string }> = [];
  for (let day = 0; day < teamDays; day++) {
    for (let j = 0; j < (day % 4 === 0 ? 8 : 5); j++) {
      const start = START + day * DAY + 9 * 3_600_000 + j * 2_400_000;
      typeBookings.push({
        id: `bkg_${day}_${j}`,
        eventTypeId: 'team',
        start,
        occupiedStart: start - 600_000,
        occupiedEnd: start + 2_400_000,
      });
    }
  }
  const occupancies: CountedBooking[] = [];
  const hosts = Array.from({ length: count }, (_, h): HostStarts => {
    const zone = zonesOfTeam.get(TEAM_ZONES[h % TEAM_ZONES.length]!)!;
    const hostAvailability = compileAvailability({ ...teamWeek, timeZone: zone.id }, zone);
    // Shifted per host so that hosts are free at different times.
    const own = bookings(100, teamDays).map((b, i) => ({
      id: `bkg_${h}_${i}`,
      eventTypeId: 'personal',
      start: b.start + h * 900_000,
      occupiedStart: b.occupiedStart + h * 900_000,
      occupiedEnd: b.occupiedEnd + h * 900_000,
    }));
    const team = typeBookings.filter((_, i) => collective || i % count === h);
    const occupied = [...own, ...team].sort((x, y) => x.occupiedStart - y.occupiedStart);
    occupancies.push(...occupied);
    const starts = standingSlotStarts(
      { availability: hostAvailability, eventTypeId: 'team', policy: teamPolicy, bookings: occupied },
      START,
      START + teamDays * DAY,
    );
    return { holderId: `hdr_${h}`, fixed: false, starts };
  });
  return {
    hosts,
    cap: { eventTypeId: 'team', maxBookingsPerDay: 8, zone: zonesOfTeam.get(TEAM_ZONES[0]!)!, bookings: occupancies },
  };
}

console.log(`\nTeam combination over ${teamDays} days (the hosts' own standing starts computed beforehand).`);
console.log('assignment    hosts  host starts  team starts  µs/combination');
for (const [shape, count] of [
  [{ assignment: 'round-robin', hostId: null }, 50],
  [{ assignment: 'collective' }, 10],
] as const) {
  const { hosts, cap } = teamHosts(count, shape.assignment === 'collective');
  let combined = 0;
  for (let i = 0; i < 200; i++) combined = teamStandingStarts(shape, hosts, cap).length; // warm-up
  const runs = 1_000;
  const began = performance.now();
  for (let i = 0; i < runs; i++) teamStandingStarts(shape, hosts, cap);
  const micros = ((performance.now() - began) * 1000) / runs;
  const hostStarts = hosts.reduce((sum, host) => sum + host.starts.length, 0);
  console.log(
    `${shape.assignment.padEnd(12)}  ${String(count).padStart(5)}  ${String(hostStarts).padStart(11)}  ${String(combined).padStart(11)}  ${micros.toFixed(1).padStart(14)}`,
  );
}
