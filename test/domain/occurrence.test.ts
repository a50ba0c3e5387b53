// Contract §16, a seated occurrence on its hosts' side: its UID is made from its event type and
// start (and read back from a calendar's UID), its SEQUENCE only ever rises as seats come and go,
// and its host is told only what the host was not told yet.
import { describe, expect, it } from 'vitest';
import { appointmentIdOfUid, occurrenceOfId, occurrenceSequence, occurrenceUid } from '../../src/domain/appointment.js';
import { occurrenceNews } from '../../src/domain/notification.js';

const START = Date.UTC(2026, 0, 5, 10);

describe('an occurrence’s UID', () => {
  it('when made from an event type and start, then it reads back as that occurrence; an appointment’s UID is none', () => {
    const uid = occurrenceUid({ eventTypeId: 'evt_abc123', start: START });
    expect(uid).toBe(`evt_abc123.${START}@slotwise`);
    const id = appointmentIdOfUid(uid);
    expect(id && occurrenceOfId(id)).toEqual({ eventTypeId: 'evt_abc123', start: START });
    expect(occurrenceOfId(appointmentIdOfUid('bkg_abc123@slotwise')!)).toBeUndefined();
    expect(appointmentIdOfUid(`evt_abc123.${START}@elsewhere`)).toBeUndefined();
  });
});

describe('an occurrence’s SEQUENCE', () => {
  it('when seats join, leave, the occurrence ends and is booked again, then each state’s SEQUENCE is at least the one before, and higher after a seat left', () => {
    // The states of one occurrence over time: [confirmed seats, departed seats].
    const history: Array<[number, number]> = [
      [1, 0], // booked
      [3, 0], // two join
      [2, 1], // one cancels
      [0, 3], // the other two leave: it ended
      [1, 3], // booked again
      [1, 4], // a seat moved away while one joined
      [0, 5],
    ];
    const sequences = history.map(([confirmed, departed]) => occurrenceSequence({ confirmed, departed }));
    expect(sequences).toEqual([0, 0, 2, 5, 6, 8, 9]);
    for (let i = 1; i < history.length; i++) {
      expect(sequences[i]).toBeGreaterThanOrEqual(sequences[i - 1]!);
      if (history[i]![1] > history[i - 1]![1]) expect(sequences[i]).toBeGreaterThan(sequences[i - 1]!);
    }
  });
});

describe('what a host is told of an occurrence', () => {
  it('when it takes place, then a REQUEST unless that was the last thing sent; when it ended, a CANCEL only after a REQUEST', () => {
    expect(occurrenceNews(true, undefined)).toBe('created');
    expect(occurrenceNews(true, 'cancelled')).toBe('created');
    expect(occurrenceNews(true, 'created')).toBeUndefined();
    expect(occurrenceNews(false, 'created')).toBe('cancelled');
    expect(occurrenceNews(false, 'cancelled')).toBeUndefined();
    expect(occurrenceNews(false, undefined)).toBeUndefined();
  });

  it('when the log no longer reaches back to the occurrence’s first seat, then an ended occurrence is cancelled unless the log says it was', () => {
    expect(occurrenceNews(false, undefined, false)).toBe('cancelled');
    expect(occurrenceNews(false, 'cancelled', false)).toBeUndefined();
    expect(occurrenceNews(true, undefined, false)).toBe('created');
  });
});
