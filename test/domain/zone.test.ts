// The zones of a process: bounded overall, whatever zones and ranges clients ask for.
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/domain/instant.js';
import { Zone, Zones } from '../../src/domain/zone.js';

const ZONE_IDS = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Adelaide', 'Pacific/Chatham'];

describe('Zones', () => {
  it('when more zones are asked for than it keeps, then it keeps only the bound, letting the least recently used go', () => {
    const zones = new Zones(3, 100);
    const berlin = zones.of('Europe/Berlin');
    zones.of('America/New_York');
    zones.of('Asia/Kolkata');
    expect(zones.of('Europe/Berlin')).toBe(berlin); // used again: now the most recent
    zones.of('Australia/Adelaide'); // lets New York go, not Berlin
    expect(zones.size).toBe(3);
    expect(zones.of('Europe/Berlin')).toBe(berlin);
    expect(zones.of('Asia/Kolkata')).toBeDefined();
    for (const id of ZONE_IDS) zones.of(id);
    expect(zones.size).toBe(3);
  });

  it('when every zone is asked about days spread over millennia, then no zone keeps more days than the bound, and answers stay right', () => {
    const zones = new Zones(2, 50);
    for (const id of ZONE_IDS) {
      const zone = zones.of(id);
      for (let year = 1970; year < 9900; year += 37) {
        const instant = Date.UTC(year, 5, 15, 12);
        // The day it falls on starts at or before it and the next one after it.
        const day = zone.dayOf(instant);
        expect(zone.startOfDay(day)).toBeLessThanOrEqual(instant);
        expect(zone.startOfDay(day + 1)).toBeGreaterThan(instant);
        expect(zone.cachedDays).toBeLessThanOrEqual(50);
      }
    }
    expect(zones.size).toBe(2);
  });

  it('when a zone starts afresh after its bound, then it answers as a fresh zone does', () => {
    const bounded = new Zone('America/Santiago', 10);
    const fresh = new Zone('America/Santiago');
    for (let day = 20_500; day < 20_700; day++) {
      expect(bounded.startOfDay(day)).toBe(fresh.startOfDay(day));
      expect(bounded.offsetMsAt(day * DAY_MS + 3_600_000)).toBe(fresh.offsetMsAt(day * DAY_MS + 3_600_000));
    }
    expect(bounded.cachedDays).toBeLessThanOrEqual(10);
  });
});
