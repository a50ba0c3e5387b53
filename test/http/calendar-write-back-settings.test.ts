// Contract §16, the host's own calendar: `writeBookings` on a CalDAV source (at most one per
// holder, CalDAV only) and `lastWriteError`, as the API takes and shows them. The settings only: no
// calendar is read or written here.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, expectInvalid, expectProblem } from './helpers.js';

interface SourceBody {
  id: string;
  writeBookings: boolean;
  lastWriteError: string | null;
}

describe('writeBookings on calendar sources', () => {
  let h: Harness;
  let token: string;

  beforeEach(async () => {
    h = await createHarness({ now: BEFORE_MONDAY });
    token = await h.key('alice');
  });

  afterEach(async () => {
    await h.close();
  });

  function create(json: Record<string, unknown>, as = token) {
    return h.request({ method: 'POST', url: '/api/v1/calendar-sources', token: as, json });
  }

  function caldav(path: string, extra: Record<string, unknown> = {}) {
    return create({ type: 'caldav', url: `http://127.0.0.1:9/dav/${path}/`, username: 'u', password: 'p', ...extra });
  }

  it('when a caldav source is created without writeBookings, then it shows false and a null lastWriteError', async () => {
    const res = await caldav('work');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<SourceBody>()).toMatchObject({ writeBookings: false, lastWriteError: null });
  });

  it('when a second caldav source of the holder asks for writeBookings, then 409 conflict and nothing is written; another holder may', async () => {
    const first = await caldav('work', { writeBookings: true });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json<SourceBody>()).toMatchObject({ writeBookings: true, lastWriteError: null });
    expectProblem(await caldav('home', { writeBookings: true }), 409, 'conflict');
    const list = await h.request({ method: 'GET', url: '/api/v1/calendar-sources', token });
    expect(list.json<{ data: SourceBody[] }>().data.map((s) => s.id)).toEqual([first.json<SourceBody>().id]);

    const bob = await h.key('bob');
    const bobs = await create(
      { type: 'caldav', url: 'http://127.0.0.1:9/dav/bob/', username: 'u', password: 'p', writeBookings: true },
      bob,
    );
    expect(bobs.statusCode, bobs.body).toBe(201);
  });

  it('when writeBookings is switched on by PATCH while another source has it, then 409; once that one is off, it is taken', async () => {
    const first = (await caldav('work', { writeBookings: true })).json<SourceBody>();
    const second = (await caldav('home')).json<SourceBody>();
    const patch = (id: string, json: Record<string, unknown>) =>
      h.request({ method: 'PATCH', url: `/api/v1/calendar-sources/${id}`, token, json });

    expectProblem(await patch(second.id, { writeBookings: true }), 409, 'conflict');
    const again = await patch(first.id, { writeBookings: true });
    expect(again.statusCode, again.body).toBe(200);

    const off = await patch(first.id, { writeBookings: false });
    expect(off.json<SourceBody>().writeBookings).toBe(false);
    const on = await patch(second.id, { writeBookings: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json<SourceBody>().writeBookings).toBe(true);
    const read = await h.request({ method: 'GET', url: `/api/v1/calendar-sources/${second.id}`, token });
    expect(read.json<SourceBody>()).toMatchObject({ writeBookings: true, lastWriteError: null });
  });

  it('when an ics source asks for writeBookings, then 400 on writeBookings, at creation and by PATCH', async () => {
    expectInvalid(await create({ type: 'ics', url: 'http://127.0.0.1:9/cal.ics', writeBookings: true }), [
      'writeBookings',
    ]);
    const ics = await create({ type: 'ics', url: 'http://127.0.0.1:9/cal.ics' });
    expect(ics.statusCode, ics.body).toBe(201);
    const id = ics.json<SourceBody>().id;
    expectInvalid(
      await h.request({ method: 'PATCH', url: `/api/v1/calendar-sources/${id}`, token, json: { writeBookings: true } }),
      ['writeBookings'],
    );
    const off = await h.request({
      method: 'PATCH',
      url: `/api/v1/calendar-sources/${id}`,
      token,
      json: { writeBookings: false },
    });
    expect(off.statusCode, off.body).toBe(200);
  });
});
