import type { Zone } from '../domain/zone.js';
import type { RenderedSlots, SlotWriter } from './slots-body.js';

/**
 * Cached slot tracks (see `CalendarCache.slotTrack`), written as JSON once per zone they are shown in. A track
 * is replaced by a new array whenever its holder's calendar changes, so the array itself is the
 * key: what was written for it stays right as long as anyone still holds it. Least recently
 * written first out once the written bytes pass `maxBytes`.
 */
export class RenderedTracks {
  private readonly rendered = new Map<Float64Array, Map<string, RenderedSlots>>();
  private bytes = 0;

  constructor(
    private readonly writer: SlotWriter,
    private readonly maxBytes: number,
  ) {}

  get(track: Float64Array, durationMs: number, zone: Zone | undefined): RenderedSlots {
    const zoneKey = zone?.id ?? '';
    const cached = this.rendered.get(track)?.get(zoneKey);
    if (cached) return cached;
    const written = this.writer.render(track, durationMs, zone);
    const size = sizeOf(written);
    // May let go of this track's other zones too: looked up again below.
    while (this.bytes + size > this.maxBytes && this.rendered.size > 0) this.evictOldest();
    let byZone = this.rendered.get(track);
    if (!byZone) {
      byZone = new Map();
      this.rendered.set(track, byZone);
    }
    byZone.set(zoneKey, written);
    this.bytes += size;
    return written;
  }

  clear(): void {
    this.rendered.clear();
    this.bytes = 0;
  }

  private evictOldest(): void {
    const [track, byZone] = this.rendered.entries().next().value!;
    this.rendered.delete(track);
    for (const written of byZone.values()) this.bytes -= sizeOf(written);
  }
}

function sizeOf(written: RenderedSlots): number {
  return written.bytes.buffer.byteLength + written.offsets.byteLength;
}
