import { describe, expect, it } from 'vitest';
import { reminderErrors, remindersAhead } from '../../src/domain/reminders.js';

const START = Date.UTC(2026, 0, 5, 9, 0);
const MINUTE = 60_000;
const offsets = (...minutes: number[]) => minutes.map((minutesBefore) => ({ minutesBefore }));

describe('remindersAhead', () => {
  it.each([
    ['made a week ahead: every reminder', START - 7 * 1440 * MINUTE, [1440, 60, 15], [1440, 60, 15]],
    ['made 30 minutes ahead: only the 15-minute one', START - 30 * MINUTE, [1440, 60, 15], [15]],
    ['made exactly at a reminder’s time: not that one', START - 60 * MINUTE, [60, 15], [15]],
    ['made a moment before a reminder’s time: that one too', START - 60 * MINUTE - 1, [60], [60]],
    ['made after the start: none', START + MINUTE, [60], []],
    ['an event type without reminders: none', START - 1440 * MINUTE, [], []],
  ])('when a booking is %s', (_, now, reminders, expected) => {
    const ahead = remindersAhead(START, offsets(...reminders), now);
    expect(ahead).toEqual(expected.map((m) => ({ minutesBefore: m, dueAt: START - m * MINUTE })));
  });
});

describe('reminderErrors', () => {
  it('when each offset is named once, then there is nothing wrong', () => {
    expect(reminderErrors(offsets(5, 60, 1440, 10080))).toEqual([]);
  });

  it('when an offset is named twice, then one error on reminders', () => {
    expect(reminderErrors(offsets(60, 15, 60))).toEqual([
      { field: 'reminders', message: 'must name each minutesBefore once' },
    ]);
  });
});
