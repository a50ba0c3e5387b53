// Contract §14: a team event type's host list, judged without the store: each holder once (the
// later entry is the wrong one), a round-robin type with a host to choose, and the defaults of
// what an entry leaves out.
import { describe, expect, it } from 'vitest';
import { teamHostErrors, teamHostOf, type TeamHost } from '../../src/domain/team-event-type.js';

const hosts = (...entries: Array<[string, boolean?]>): TeamHost[] =>
  entries.map(([holderId, fixed]) => teamHostOf({ holderId, fixed }));

describe('teamHostOf', () => {
  it('when an entry names only its holder, then it gets the default schedule, not fixed, priority 2 and weight 100', () => {
    expect(teamHostOf({ holderId: 'hdr_a' })).toEqual({
      holderId: 'hdr_a',
      scheduleId: null,
      fixed: false,
      priority: 2,
      weight: 100,
    });
    expect(teamHostOf({ holderId: 'hdr_a', scheduleId: 'sch_a', fixed: true, priority: 0, weight: 1 })).toEqual({
      holderId: 'hdr_a',
      scheduleId: 'sch_a',
      fixed: true,
      priority: 0,
      weight: 1,
    });
  });
});

describe('teamHostErrors', () => {
  it('when holders repeat, then each later entry is named, with the first it repeats', () => {
    expect(teamHostErrors('collective', hosts(['a'], ['b'], ['a'], ['b'], ['a']))).toEqual([
      { field: 'hosts[2].holderId', message: 'is hosts[0] again: each host once' },
      { field: 'hosts[3].holderId', message: 'is hosts[1] again: each host once' },
      { field: 'hosts[4].holderId', message: 'is hosts[0] again: each host once' },
    ]);
  });

  it('when every host of a round-robin type is fixed, then `hosts` is wrong; a collective type may have them all fixed', () => {
    expect(teamHostErrors('round-robin', hosts(['a', true], ['b', true])).map((e) => e.field)).toEqual(['hosts']);
    expect(teamHostErrors('round-robin', hosts(['a', true], ['b', false]))).toEqual([]);
    expect(teamHostErrors('collective', hosts(['a', true], ['b', true]))).toEqual([]);
  });
});
