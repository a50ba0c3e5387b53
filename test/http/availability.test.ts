import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, expectInvalid, expectInvalidIncluding, putAvailability } from './helpers.js';

let h: Harness;
let token: string;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  token = await h.key('alice');
});

afterEach(async () => {
  await h.close();
});

const get = () => h.request({ method: 'GET', url: '/api/v1/availability', token });
const empty = { monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [], sunday: [] };

describe('GET /api/v1/availability', () => {
  it('when a holder never set one, then it is Mon–Fri 09:00–17:00 in UTC with no overrides', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    const workday = [{ start: '09:00', end: '17:00' }];
    expect(body).toMatchObject({
      timeZone: 'UTC',
      weekly: {
        monday: workday,
        tuesday: workday,
        wednesday: workday,
        thursday: workday,
        friday: workday,
        saturday: [],
        sunday: [],
      },
      overrides: [],
    });
    expect(typeof body.updatedAt).toBe('string');
  });
});

describe('PUT /api/v1/availability', () => {
  it('when a full document is sent, then it replaces the old one and GET returns it', async () => {
    h.clock.set('2026-01-02T12:00:00Z');
    const doc = {
      timeZone: 'Europe/Berlin',
      weekly: {
        monday: [
          { start: '09:00', end: '12:00' },
          { start: '13:00', end: '17:00' },
        ],
        saturday: [{ start: '10:00', end: '24:00' }],
      },
      overrides: [{ date: '2026-12-24', intervals: [] }],
    };
    const res = await putAvailability(h, token, doc);
    expect(res.statusCode, res.body).toBe(200);
    const expected = {
      timeZone: 'Europe/Berlin',
      weekly: { ...empty, monday: doc.weekly.monday, saturday: doc.weekly.saturday },
      overrides: doc.overrides,
      updatedAt: '2026-01-02T12:00:00.000Z',
    };
    expect(res.json()).toEqual(expected);
    expect((await get()).json()).toEqual(expected);
  });

  it('when weekdays are omitted, then they are empty (not kept from before)', async () => {
    await putAvailability(h, token, { timeZone: 'UTC', weekly: { tuesday: [{ start: '08:00', end: '10:00' }] } });
    const body = (await get()).json();
    expect(body.weekly).toEqual({ ...empty, tuesday: [{ start: '08:00', end: '10:00' }] });
    expect(body.overrides).toEqual([]);
  });

  it('when the zone is spelled in another case, then it is stored in its canonical spelling', async () => {
    const res = await putAvailability(h, token, { timeZone: 'europe/berlin', weekly: {} });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().timeZone).toBe('Europe/Berlin');
    expect((await get()).json().timeZone).toBe('Europe/Berlin');
  });

  it('when intervals and overrides arrive unsorted, then they come back sorted', async () => {
    const res = await putAvailability(h, token, {
      timeZone: 'UTC',
      weekly: {
        monday: [
          { start: '13:00', end: '14:00' },
          { start: '09:00', end: '10:00' },
        ],
      },
      overrides: [
        { date: '2026-02-02', intervals: [] },
        { date: '2026-01-12', intervals: [{ start: '10:00', end: '11:00' }] },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.weekly.monday).toEqual([
      { start: '09:00', end: '10:00' },
      { start: '13:00', end: '14:00' },
    ]);
    expect(body.overrides.map((o: { date: string }) => o.date)).toEqual(['2026-01-12', '2026-02-02']);
  });

  it('when an interval ends at 24:00, then it is accepted', async () => {
    const res = await putAvailability(h, token, {
      timeZone: 'UTC',
      weekly: { friday: [{ start: '00:00', end: '24:00' }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().weekly.friday).toEqual([{ start: '00:00', end: '24:00' }]);
  });

  it('when touching intervals are sent, then they are accepted', async () => {
    const res = await putAvailability(h, token, {
      timeZone: 'UTC',
      weekly: {
        monday: [
          { start: '09:00', end: '12:00' },
          { start: '12:00', end: '13:00' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('when the document is invalid, then the old one stays in place', async () => {
    await putAvailability(h, token, {
      timeZone: 'Europe/Paris',
      weekly: { monday: [{ start: '09:00', end: '10:00' }] },
    });
    const before = (await get()).json();
    expectInvalidIncluding(
      await putAvailability(h, token, { timeZone: 'UTC', weekly: { monday: [{ start: '11:00', end: '10:00' }] } }),
      ['weekly.monday[0].end'],
    );
    expect((await get()).json()).toEqual(before);
  });

  describe('when parts fail the schema', () => {
    it('then each bad HH:MM, zone, date pattern and unknown field has its own entry with its path', async () => {
      const res = await putAvailability(h, token, {
        timeZone: 'Mars/Olympus',
        weekly: {
          monday: [
            { start: '9:00', end: '12:00' },
            { start: '13:00', end: '17:60' },
          ],
          tuesday: [{ start: '24:01', end: '25:00' }],
          funday: [],
        },
        overrides: [
          { date: '2026-12-24', intervals: [] },
          { date: '24.12.2026', intervals: [] },
          { date: '2026-12-31', intervals: [{ start: '10:00' }] },
        ],
        colour: 'blue',
      });
      expectInvalid(res, [
        'timeZone',
        'weekly.monday[0].start',
        'weekly.monday[1].end',
        'weekly.tuesday[0].start',
        'weekly.tuesday[0].end',
        'weekly.funday',
        'overrides[1].date',
        'overrides[2].intervals[0].end',
        'colour',
      ]);
    });

    it('then a missing timeZone and weekly are reported', async () => {
      expectInvalid(await putAvailability(h, token, {}), ['timeZone', 'weekly']);
    });

    it.each(['+01:00', 'UTC+1', 'Europe/Nowhere', ''])('then the zone %j is rejected on timeZone', async (zone) => {
      expectInvalid(await putAvailability(h, token, { timeZone: zone, weekly: {} }), ['timeZone']);
    });
  });

  describe('when parts break the rules beyond the schema', () => {
    it('then overlaps, start ≥ end, 24:00 starts, impossible and repeated dates each get their own entry', async () => {
      const res = await putAvailability(h, token, {
        timeZone: 'UTC',
        weekly: {
          monday: [
            { start: '09:00', end: '12:00' },
            { start: '11:00', end: '13:00' },
          ],
          tuesday: [{ start: '10:00', end: '10:00' }],
          wednesday: [{ start: '24:00', end: '24:00' }],
        },
        overrides: [
          { date: '2026-03-01', intervals: [] },
          { date: '2026-02-30', intervals: [] },
          { date: '2026-03-01', intervals: [{ start: '15:00', end: '14:00' }] },
        ],
      });
      expectInvalid(res, [
        'weekly.monday[1]',
        'weekly.tuesday[0].end',
        'weekly.wednesday[0].start',
        'overrides[1].date',
        'overrides[2].date',
        'overrides[2].intervals[0].end',
      ]);
    });
  });

  it('when a schema error and a rule error occur together, then both are reported in one response', async () => {
    // Contract §3: one errors entry per failing field — a client should not have to fix and resend to learn the next one.
    const res = await putAvailability(h, token, {
      timeZone: 'Mars/Olympus',
      weekly: {
        monday: [
          { start: '09:00', end: '12:00' },
          { start: '11:00', end: '13:00' },
        ],
      },
    });
    expectInvalid(res, ['timeZone', 'weekly.monday[1]']);
  });
});
