import type { SlotPolicy } from '../domain/slots.js';
import type { TeamEventType } from '../domain/team-event-type.js';
import type { TeamShape } from '../domain/team-slots.js';
import type { SlotOffer } from './calendars.js';

/** Combined starts kept for all team types together, in bytes of starts (8 each), as the hosts' tracks are bounded. */
const MAX_COMBINED_BYTES = 16 * 1024 * 1024;

/**
 * Per process: each team type's offers to its hosts (one per host: that host's schedule and the
 * type's policy with the cap left to the team), and its combined standing starts, kept while the
 * team type (the team cache's object) and every host's track are the ones they were combined
 * from: a host's track is a new array whenever its calendar changes, so nothing else is compared.
 */
export class TeamSlotCache {
  private readonly offers = new WeakMap<TeamEventType, SlotOffer[]>();
  private readonly kept = new Map<
    string,
    { team: TeamEventType; tracks: readonly Float64Array[]; starts: Float64Array }
  >();
  private keptBytes = 0;

  offersOf(team: TeamEventType): SlotOffer[] {
    let offers = this.offers.get(team);
    if (!offers) {
      const policy: SlotPolicy = { ...team, maxBookingsPerDay: null };
      offers = team.hosts.map((host) => ({ id: team.id, policy, scheduleId: host.scheduleId }));
      this.offers.set(team, offers);
    }
    return offers;
  }

  combined(
    team: TeamEventType,
    shape: TeamShape,
    tracks: readonly Float64Array[],
    combine: () => Float64Array,
  ): Float64Array {
    const key = shape.assignment === 'collective' ? team.id : `${team.id} ${shape.hostId ?? ''}`;
    const entry = this.kept.get(key);
    if (entry && entry.team === team && entry.tracks.every((track, index) => track === tracks[index]))
      return entry.starts;
    const starts = combine();
    if (entry) this.forget(key, entry.starts);
    // Least recently combined first out.
    while (this.keptBytes + starts.byteLength > MAX_COMBINED_BYTES && this.kept.size > 0) {
      const [oldest, kept] = this.kept.entries().next().value!;
      this.forget(oldest, kept.starts);
    }
    this.kept.set(key, { team, tracks: [...tracks], starts });
    this.keptBytes += starts.byteLength;
    return starts;
  }

  clear(): void {
    this.kept.clear();
    this.keptBytes = 0;
  }

  private forget(key: string, starts: Float64Array): void {
    this.kept.delete(key);
    this.keptBytes -= starts.byteLength;
  }
}
