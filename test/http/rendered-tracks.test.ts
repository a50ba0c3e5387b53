// Written slot tracks are kept per track array and zone, within a byte budget.
import { describe, expect, it } from 'vitest';
import { Zone } from '../../src/domain/zone.js';
import { RenderedTracks } from '../../src/http/rendered-tracks.js';
import { SlotWriter, slotsAnswer } from '../../src/http/slots-body.js';

const MINUTE = 60_000;
const MONDAY_9 = Date.parse('2026-01-05T09:00:00Z');
const track = (count: number) => Float64Array.from({ length: count }, (_, i) => MONDAY_9 + i * 30 * MINUTE);
const answer = (written: ReturnType<RenderedTracks['get']>, count: number) =>
  JSON.parse(Buffer.concat(slotsAnswer(written, 0, count)).toString()).data;

describe('RenderedTracks', () => {
  it('when the same track is asked for in the same zone, then it is written once; in another zone, it is written for that zone', () => {
    const tracks = new RenderedTracks(new SlotWriter(), 1024 * 1024);
    const starts = track(3);
    const utc = tracks.get(starts, 30 * MINUTE, undefined);
    expect(tracks.get(starts, 30 * MINUTE, undefined)).toBe(utc);
    const berlin = tracks.get(starts, 30 * MINUTE, new Zone('Europe/Berlin'));
    expect(berlin).not.toBe(utc);
    expect(answer(utc, 3)[0]).toEqual({ start: '2026-01-05T09:00:00.000Z', end: '2026-01-05T09:30:00.000Z' });
    expect(answer(berlin, 3)[0]).toEqual({ start: '2026-01-05T10:00:00+01:00', end: '2026-01-05T10:30:00+01:00' });
  });

  it('when a new track array arrives (its calendar changed), then it is written afresh, whatever the old one held', () => {
    const tracks = new RenderedTracks(new SlotWriter(), 1024 * 1024);
    tracks.get(track(3), 30 * MINUTE, undefined);
    const fewer = track(2);
    expect(answer(tracks.get(fewer, 30 * MINUTE, undefined), 2)).toHaveLength(2);
  });

  it('when the written text passes the budget, then the least recently written track is let go and written again if asked for', () => {
    const first = track(100);
    const second = track(100);
    const probe = new RenderedTracks(new SlotWriter(), 1024 * 1024);
    const size = probe.get(first, 30 * MINUTE, undefined).bytes.buffer.byteLength;
    // Room for one written track, not two.
    const tracks = new RenderedTracks(new SlotWriter(), size * 1.5);
    const written = tracks.get(first, 30 * MINUTE, undefined);
    tracks.get(second, 30 * MINUTE, undefined);
    const again = tracks.get(first, 30 * MINUTE, undefined);
    expect(again).not.toBe(written);
    expect(answer(again, 100)).toEqual(answer(written, 100));
  });
});
