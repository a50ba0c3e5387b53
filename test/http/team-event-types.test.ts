// Contract §14, team event types, on both stores: made in account scope (an account key without
// Slotwise-Holder) with `assignment` and `hosts`, read, listed, changed and deleted there; read
// (never changed) by their hosts; each bad input a 400 on its exact field with nothing written;
// slugs unique among the account's live team types; at most TEAM_EVENT_TYPES_PER_ACCOUNT; and a
// holder that hosts a live team type cannot be deleted.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { createHarness, type Harness } from '../support/harness.js';
import {
  BEFORE_MONDAY,
  createEventType,
  expectInvalid,
  expectProblem,
  type EventTypeBody,
  type ListBody,
} from './helpers.js';

interface Host {
  holderId: string;
  scheduleId: string | null;
  fixed: boolean;
  priority: number;
  weight: number;
}

interface AnyEventType extends EventTypeBody {
  holderId: string | null;
  scheduleId: string | null;
  assignment: 'collective' | 'round-robin' | null;
  hosts: Host[] | null;
  public: boolean;
  bookingPageUrl: string | null;
}

const BASE_URL = 'https://book.example.com';

let h: Harness;
/** acme's account key; its holders ada, bob, cy (holder keys too) and dee (deleted). */
let acme: string;
let ada: { id: string; key: string };
let bob: { id: string; key: string };
let cy: { id: string; key: string };
let deeId: string;
/** Another account, globex: its account key and its holder gus. */
let globex: string;
let gus: { id: string; key: string };

async function accountKey(harness: Harness, account: string): Promise<string> {
  return (
    await createApiKey(harness.context, { accountName: account, holderName: null, scopes: ['*'], expiresAt: null })
  ).token;
}

async function holderOf(harness: Harness, account: string, name: string): Promise<{ id: string; key: string }> {
  const { key, token } = await createApiKey(harness.context, {
    accountName: account,
    holderName: name,
    scopes: ['*'],
    expiresAt: null,
  });
  return { id: key.holderId!, key: token };
}

async function setUp(harness: Harness): Promise<void> {
  h = harness;
  acme = await accountKey(h, 'acme');
  ada = await holderOf(h, 'acme', 'ada');
  bob = await holderOf(h, 'acme', 'bob');
  cy = await holderOf(h, 'acme', 'cy');
  deeId = (await holderOf(h, 'acme', 'dee')).id;
  expect((await call('DELETE', `/api/v1/holders/${deeId}`, acme)).statusCode).toBe(204);
  globex = await accountKey(h, 'globex');
  gus = await holderOf(h, 'globex', 'gus');
}

beforeEach(async () => {
  await setUp(await createHarness({ now: BEFORE_MONDAY, publicBaseUrl: BASE_URL }));
});

afterEach(async () => {
  await h.close();
});

function call(method: string, url: string, token: string, json?: unknown, holder?: string) {
  return h.request({
    method: method as 'GET',
    url,
    token,
    ...(json === undefined ? {} : { json }),
    ...(holder ? { headers: { 'slotwise-holder': holder } } : {}),
  });
}

async function ok<T = AnyEventType>(method: string, url: string, token: string, json?: unknown, status = 200) {
  const res = await call(method, url, token, json);
  expect(res.statusCode, res.body).toBe(status);
  return res.json<T>();
}

function team(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Sales call',
    durationMinutes: 30,
    assignment: 'round-robin',
    hosts: [{ holderId: ada.id }, { holderId: bob.id }],
    ...fields,
  };
}

const makeTeam = (fields: Record<string, unknown> = {}) => ok('POST', '/api/v1/event-types', acme, team(fields), 201);

/** Everything stored of event types (and their hosts) as the account sees them: what a refused request must leave alone. */
async function everything(): Promise<unknown> {
  return {
    listed: await ok<ListBody<AnyEventType>>('GET', '/api/v1/event-types?limit=100', acme),
    hosts: (await h.database.rows('event_type_hosts')).map((row) => ({ ...row })),
  };
}

describe('creating a team event type (account scope)', () => {
  it('when an account key sends assignment and hosts, then 201 with holderId null, scheduleId null, the hosts in order with defaults filled, and it reads back and lists the same', async () => {
    const res = await call(
      'POST',
      '/api/v1/event-types',
      acme,
      team({
        assignment: 'collective',
        hosts: [{ holderId: cy.id }, { holderId: ada.id, fixed: true, priority: 4, weight: 7, scheduleId: null }],
        public: true,
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<AnyEventType>();
    expect(res.headers.location).toBe(`/api/v1/event-types/${created.id}`);
    expect(created).toMatchObject({
      holderId: null,
      scheduleId: null,
      assignment: 'collective',
      title: 'Sales call',
      slug: 'sales-call',
      durationMinutes: 30,
      slotIntervalMinutes: 30,
      public: true,
      bookingPageUrl: `${BASE_URL}/team/acme/sales-call`,
    });
    expect(created.hosts).toEqual([
      { holderId: cy.id, scheduleId: null, fixed: false, priority: 2, weight: 100 },
      { holderId: ada.id, scheduleId: null, fixed: true, priority: 4, weight: 7 },
    ]);
    expect(await ok('GET', `/api/v1/event-types/${created.id}`, acme)).toEqual(created);
    const listed = await ok<ListBody<AnyEventType>>('GET', '/api/v1/event-types', acme);
    expect(listed.data).toEqual([created]);
  });

  it('when a holder’s own event type is read, then it shows assignment, hosts and scheduleId null', async () => {
    const own = (await createEventType(h, ada.key, { public: true })) as AnyEventType;
    expect(own).toMatchObject({ holderId: ada.id, assignment: null, hosts: null, scheduleId: null });
    expect(own.bookingPageUrl).toBe(`${BASE_URL}/book/ada/intro-call`);
    expect(await ok('GET', `/api/v1/event-types/${own.id}`, acme)).toEqual(own);
  });

  it('when a private team type is made, then its bookingPageUrl is null; made public, it is under the account’s handle, which follows the account', async () => {
    const created = await makeTeam();
    expect(created.bookingPageUrl).toBeNull();
    const patched = await ok('PATCH', `/api/v1/event-types/${created.id}`, acme, { public: true });
    expect(patched.bookingPageUrl).toBe(`${BASE_URL}/team/acme/sales-call`);
    await ok('PATCH', '/api/v1/me', acme, { handle: 'acme-sales' });
    expect((await ok('GET', `/api/v1/event-types/${created.id}`, acme)).bookingPageUrl).toBe(
      `${BASE_URL}/team/acme-sales/sales-call`,
    );
  });

  it('when account scope sends no assignment or hosts, then 400 on each, and nothing is made', async () => {
    const before = await everything();
    expectInvalid(await call('POST', '/api/v1/event-types', acme, { title: 'Team call', durationMinutes: 30 }), [
      'assignment',
      'hosts',
    ]);
    expectInvalid(await call('POST', '/api/v1/event-types', acme, team({ assignment: undefined })), ['assignment']);
    expectInvalid(await call('POST', '/api/v1/event-types', acme, team({ hosts: undefined })), ['hosts']);
    expect(await everything()).toEqual(before);
  });

  const badInputs: Array<[string, () => Record<string, unknown>, string[]]> = [
    [
      'a host of another account, an unknown one and a deleted one',
      () =>
        team({
          hosts: [
            { holderId: ada.id },
            { holderId: bob.id },
            { holderId: gus.id },
            { holderId: 'hdr_00000000000000000000' },
            { holderId: deeId },
          ],
        }),
      ['hosts[2].holderId', 'hosts[3].holderId', 'hosts[4].holderId'],
    ],
    [
      'a holder twice',
      () => team({ hosts: [{ holderId: ada.id }, { holderId: bob.id }, { holderId: cy.id }, { holderId: ada.id }] }),
      ['hosts[3].holderId'],
    ],
    [
      'a round-robin type whose hosts are all fixed',
      () =>
        team({
          hosts: [
            { holderId: ada.id, fixed: true },
            { holderId: bob.id, fixed: true },
          ],
        }),
      ['hosts'],
    ],
    [
      'a host scheduleId that is not a schedule of that host',
      () => team({ hosts: [{ holderId: ada.id }, { holderId: bob.id, scheduleId: 'sch_00000000000000000000' }] }),
      ['hosts[1].scheduleId'],
    ],
    ['a scheduleId of the type itself', () => team({ scheduleId: 'sch_00000000000000000000' }), ['scheduleId']],
    ['no hosts', () => team({ hosts: [] }), ['hosts']],
    [
      '101 hosts',
      () =>
        team({ hosts: Array.from({ length: 101 }, (_, i) => ({ holderId: `hdr_${String(i).padStart(20, '0')}` })) }),
      ['hosts'],
    ],
    ['an assignment that is none', () => team({ assignment: 'solo' }), ['assignment']],
    [
      'a priority, a weight and a field out of bounds',
      () =>
        team({
          hosts: [
            { holderId: ada.id, priority: 5 },
            { holderId: bob.id, weight: 0 },
            { holderId: cy.id, colour: 'red' },
          ],
        }),
      ['hosts[0].priority', 'hosts[1].weight', 'hosts[2].colour'],
    ],
    ['a host without a holderId', () => team({ hosts: [{ fixed: true }] }), ['hosts[0].holderId']],
  ];

  for (const [what, body, fields] of badInputs) {
    it(`when the body has ${what}, then 400 on ${fields.join(', ')}, and nothing is made`, async () => {
      const before = await everything();
      expectInvalid(await call('POST', '/api/v1/event-types', acme, body()), fields);
      expect(await everything()).toEqual(before);
      expect(await h.database.rows('event_type_hosts')).toEqual([]);
    });
  }

  it('when a holder key, or an account key acting for a holder, sends assignment or hosts, then 400 on each: only account scope makes team types', async () => {
    const before = await everything();
    expectInvalid(await call('POST', '/api/v1/event-types', ada.key, team()), ['assignment', 'hosts']);
    expectInvalid(await call('POST', '/api/v1/event-types', acme, team({ assignment: undefined }), ada.id), ['hosts']);
    expect(await everything()).toEqual(before);
  });

  it('when a slug is taken among the account’s live team types, then an explicit one is 409 conflict and a derived one gets a suffix; personal slugs, other accounts’ and deleted team types do not take it', async () => {
    await createEventType(h, ada.key, { title: 'Sales call' });
    const first = await makeTeam();
    expect(first.slug).toBe('sales-call');
    expect((await makeTeam()).slug).toBe('sales-call-2');
    const taken = expectProblem(
      await call('POST', '/api/v1/event-types', acme, team({ slug: 'sales-call' })),
      409,
      'conflict',
    );
    expect(taken.errors?.map((e) => e.field)).toEqual(['slug']);
    expect(
      (
        await ok(
          'POST',
          '/api/v1/event-types',
          globex,
          team({ slug: 'sales-call', hosts: [{ holderId: gus.id }] }),
          201,
        )
      ).slug,
    ).toBe('sales-call');
    expect((await call('DELETE', `/api/v1/event-types/${first.id}`, acme)).statusCode).toBe(204);
    expect((await makeTeam({ slug: 'sales-call' })).slug).toBe('sales-call');
  });
});

describe('the limit of team event types per account', () => {
  it('when the account has TEAM_EVENT_TYPES_PER_ACCOUNT live team types, then another is 409 limit-reached; a deletion makes room; holders’ own types and other accounts are not counted', async () => {
    await h.close();
    await setUp(await createHarness({ now: BEFORE_MONDAY, teamEventTypesPerAccount: 2 }));
    await createEventType(h, ada.key);
    const first = await makeTeam();
    await makeTeam();
    const before = await everything();
    expectProblem(await call('POST', '/api/v1/event-types', acme, team()), 409, 'limit-reached');
    expect(await everything()).toEqual(before);
    // Validation comes first: a bad body is a 400 even at the limit.
    expectInvalid(await call('POST', '/api/v1/event-types', acme, team({ assignment: 'solo' })), ['assignment']);
    await ok('POST', '/api/v1/event-types', globex, team({ hosts: [{ holderId: gus.id }] }), 201);
    await createEventType(h, bob.key);
    expect((await call('DELETE', `/api/v1/event-types/${first.id}`, acme)).statusCode).toBe(204);
    await makeTeam();
  });
});

describe('changing and deleting a team event type (account scope)', () => {
  it('when hosts, assignment and other fields are sent, then only those change; the hosts are replaced in the order sent, with defaults filled', async () => {
    const created = await makeTeam({ description: 'Talk to sales' });
    const patched = await ok('PATCH', `/api/v1/event-types/${created.id}`, acme, {
      title: 'Sales intro',
      assignment: 'collective',
      hosts: [{ holderId: cy.id, weight: 3 }, { holderId: ada.id }],
    });
    expect(patched).toEqual({
      ...created,
      title: 'Sales intro',
      assignment: 'collective',
      hosts: [
        { holderId: cy.id, scheduleId: null, fixed: false, priority: 2, weight: 3 },
        { holderId: ada.id, scheduleId: null, fixed: false, priority: 2, weight: 100 },
      ],
      updatedAt: patched.updatedAt,
    });
    expect(await ok('GET', `/api/v1/event-types/${created.id}`, acme)).toEqual(patched);
    const onlyDuration = await ok('PATCH', `/api/v1/event-types/${created.id}`, acme, { durationMinutes: 60 });
    expect(onlyDuration).toEqual({
      ...patched,
      durationMinutes: 60,
      slotIntervalMinutes: 60,
      updatedAt: onlyDuration.updatedAt,
    });
  });

  const badChanges: Array<[string, () => Record<string, unknown>, string[]]> = [
    [
      'a holder of another account',
      () => ({ hosts: [{ holderId: ada.id }, { holderId: gus.id }] }),
      ['hosts[1].holderId'],
    ],
    ['a deleted holder', () => ({ hosts: [{ holderId: deeId }] }), ['hosts[0].holderId']],
    ['a holder twice', () => ({ hosts: [{ holderId: bob.id }, { holderId: bob.id }] }), ['hosts[1].holderId']],
    ['hosts all fixed for the round-robin type', () => ({ hosts: [{ holderId: bob.id, fixed: true }] }), ['hosts']],
    ['round robin over hosts that are all fixed', () => ({ assignment: 'round-robin' }), ['hosts']],
    [
      'a host schedule that is not the host’s',
      () => ({ hosts: [{ holderId: bob.id, scheduleId: 'sch_x' }] }),
      ['hosts[0].scheduleId'],
    ],
    ['a scheduleId of the type', () => ({ scheduleId: 'sch_00000000000000000000' }), ['scheduleId']],
    ['no hosts', () => ({ hosts: [] }), ['hosts']],
  ];

  for (const [what, body, fields] of badChanges) {
    it(`when a PATCH sends ${what}, then 400 on ${fields.join(', ')}, and nothing changes`, async () => {
      // Collective with every host fixed, so that only a change makes it wrong.
      const created = await makeTeam({
        assignment: what.startsWith('round robin') ? 'collective' : 'round-robin',
        hosts: what.startsWith('round robin')
          ? [
              { holderId: ada.id, fixed: true },
              { holderId: bob.id, fixed: true },
            ]
          : [{ holderId: ada.id }, { holderId: bob.id }],
      });
      const before = await everything();
      expectInvalid(await call('PATCH', `/api/v1/event-types/${created.id}`, acme, body()), fields);
      expect(await everything()).toEqual(before);
    });
  }

  it('when a PATCH sends a scheduleId of null, then it is accepted and stays null', async () => {
    const created = await makeTeam();
    expect((await ok('PATCH', `/api/v1/event-types/${created.id}`, acme, { scheduleId: null })).scheduleId).toBeNull();
  });

  it('when a holder’s own event type is sent assignment or hosts, then 400 on each, and nothing changes', async () => {
    const own = await createEventType(h, ada.key);
    const before = await everything();
    expectInvalid(
      await call('PATCH', `/api/v1/event-types/${own.id}`, acme, {
        assignment: 'collective',
        hosts: [{ holderId: ada.id }],
      }),
      ['assignment', 'hosts'],
    );
    expectInvalid(await call('PATCH', `/api/v1/event-types/${own.id}`, ada.key, { hosts: [{ holderId: ada.id }] }), [
      'hosts',
    ]);
    expect(await everything()).toEqual(before);
  });

  it('when the slug is changed to another live team type’s, then 409 conflict; its own is fine', async () => {
    const first = await makeTeam();
    const second = await makeTeam({ title: 'Demo' });
    expectProblem(await call('PATCH', `/api/v1/event-types/${second.id}`, acme, { slug: first.slug }), 409, 'conflict');
    expect((await ok('PATCH', `/api/v1/event-types/${first.id}`, acme, { slug: first.slug })).slug).toBe(first.slug);
  });

  it('when it is deleted, then 204, it is gone by id and from lists, its hosts list it no more, and a second delete is 404', async () => {
    const created = await makeTeam();
    expect((await call('DELETE', `/api/v1/event-types/${created.id}`, acme)).statusCode).toBe(204);
    expectProblem(await call('GET', `/api/v1/event-types/${created.id}`, acme), 404, 'not-found');
    expectProblem(await call('GET', `/api/v1/event-types/${created.id}`, ada.key), 404, 'not-found');
    expect((await ok<ListBody<AnyEventType>>('GET', '/api/v1/event-types', acme)).data).toEqual([]);
    expect((await ok<ListBody<AnyEventType>>('GET', '/api/v1/event-types', ada.key)).data).toEqual([]);
    expectProblem(await call('DELETE', `/api/v1/event-types/${created.id}`, acme), 404, 'not-found');
    expectProblem(await call('PATCH', `/api/v1/event-types/${created.id}`, acme, { title: 'Back' }), 404, 'not-found');
  });
});

describe('team event types seen from a holder (contract §14: a host reads the team types it hosts)', () => {
  let hosted: AnyEventType;
  let notHosted: AnyEventType;
  let adaOwn: AnyEventType;
  let bobOwn: AnyEventType;

  beforeEach(async () => {
    adaOwn = (await createEventType(h, ada.key, { title: 'Ada call' })) as AnyEventType;
    h.clock.set(h.clock.current + 60_000);
    hosted = await makeTeam({ hosts: [{ holderId: bob.id }, { holderId: ada.id }] });
    h.clock.set(h.clock.current + 60_000);
    notHosted = await makeTeam({ title: 'Support', hosts: [{ holderId: bob.id }, { holderId: cy.id }] });
    h.clock.set(h.clock.current + 60_000);
    bobOwn = (await createEventType(h, bob.key, { title: 'Bob call' })) as AnyEventType;
  });

  it('when a host reads a team type it hosts, with its key or through Slotwise-Holder, then 200 with the type as the account sees it', async () => {
    expect(await ok('GET', `/api/v1/event-types/${hosted.id}`, ada.key)).toEqual(hosted);
    const viaHeader = await call('GET', `/api/v1/event-types/${hosted.id}`, acme, undefined, ada.id);
    expect(viaHeader.statusCode).toBe(200);
    expect(viaHeader.json()).toEqual(hosted);
  });

  it('when a holder that does not host it, or another account, reads it, then 404, word for word the unknown id’s', async () => {
    const unknown = 'evt_00000000000000000000';
    for (const [token, holder] of [
      [ada.key, undefined],
      [acme, ada.id],
      [gus.key, undefined],
      [globex, undefined],
      [globex, gus.id],
    ] as const) {
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const json = method === 'PATCH' ? { title: 'Hijacked' } : undefined;
        const answer = await call(method, `/api/v1/event-types/${notHosted.id}`, token, json, holder);
        const none = await call(method, `/api/v1/event-types/${unknown}`, token, json, holder);
        expectProblem(answer, 404, 'not-found');
        expect(answer.body.replace(notHosted.id, unknown)).toBe(none.body);
      }
    }
    expect(await ok('GET', `/api/v1/event-types/${notHosted.id}`, acme)).toEqual(notHosted);
  });

  it('when a host changes or deletes a team type it hosts, then 403 forbidden, and nothing changes', async () => {
    const before = await everything();
    for (const [token, holder] of [
      [ada.key, undefined],
      [acme, ada.id],
    ] as const) {
      const patched = await call('PATCH', `/api/v1/event-types/${hosted.id}`, token, { title: 'Mine now' }, holder);
      expectProblem(patched, 403, 'forbidden');
      expect(patched.json<{ detail: string }>().detail).toMatch(/team event type/);
      expectProblem(
        await call('DELETE', `/api/v1/event-types/${hosted.id}`, token, undefined, holder),
        403,
        'forbidden',
      );
    }
    expect(await everything()).toEqual(before);
  });

  it('when a holder lists event types, then it finds its own and the team types it hosts, oldest first, page by page', async () => {
    const ids = (list: ListBody<AnyEventType>) => list.data.map((t) => t.id);
    expect(ids(await ok<ListBody<AnyEventType>>('GET', '/api/v1/event-types', ada.key))).toEqual([
      adaOwn.id,
      hosted.id,
    ]);
    expect(ids(await ok<ListBody<AnyEventType>>('GET', '/api/v1/event-types', bob.key))).toEqual([
      hosted.id,
      notHosted.id,
      bobOwn.id,
    ]);
    const viaHeader = await call('GET', '/api/v1/event-types', acme, undefined, bob.id);
    expect(ids(viaHeader.json<ListBody<AnyEventType>>())).toEqual([hosted.id, notHosted.id, bobOwn.id]);
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ListBody<AnyEventType> = await ok<ListBody<AnyEventType>>(
        'GET',
        `/api/v1/event-types?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
        bob.key,
      );
      pages.push(...ids(page));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(pages).toEqual([hosted.id, notHosted.id, bobOwn.id]);
    expect(ids(await ok<ListBody<AnyEventType>>('GET', '/api/v1/event-types', gus.key))).toEqual([]);
  });

  it('when account scope lists event types, then it finds every one of the account; with holderId, that holder’s own and the team types it hosts', async () => {
    const ids = (list: ListBody<AnyEventType>) => list.data.map((t) => t.id);
    expect(ids(await ok<ListBody<AnyEventType>>('GET', '/api/v1/event-types', acme))).toEqual([
      adaOwn.id,
      hosted.id,
      notHosted.id,
      bobOwn.id,
    ]);
    expect(ids(await ok<ListBody<AnyEventType>>('GET', `/api/v1/event-types?holderId=${ada.id}`, acme))).toEqual([
      adaOwn.id,
      hosted.id,
    ]);
    expect(ids(await ok<ListBody<AnyEventType>>('GET', `/api/v1/event-types?holderId=${cy.id}`, acme))).toEqual([
      notHosted.id,
    ]);
    expect((await ok<ListBody<AnyEventType>>('GET', '/api/v1/event-types', globex)).data).toEqual([]);
  });
});

describe('deleting a holder that hosts a team event type (contract §12)', () => {
  it('when the holder hosts a live team type, then 409 invalid-state and it stays; once it hosts none (taken out, or the type deleted), the deletion goes through', async () => {
    const sales = await makeTeam({ hosts: [{ holderId: ada.id }, { holderId: bob.id }] });
    const support = await makeTeam({ title: 'Support', hosts: [{ holderId: bob.id }] });
    for (const id of [ada.id, bob.id]) {
      const refused = expectProblem(await call('DELETE', `/api/v1/holders/${id}`, acme), 409, 'invalid-state');
      expect(refused.detail).toMatch(/team event type/);
      await ok('GET', `/api/v1/holders/${id}`, acme);
    }
    await ok('PATCH', `/api/v1/event-types/${sales.id}`, acme, { hosts: [{ holderId: bob.id }] });
    expect((await call('DELETE', `/api/v1/holders/${ada.id}`, acme)).statusCode).toBe(204);
    expectProblem(await call('DELETE', `/api/v1/holders/${bob.id}`, acme), 409, 'invalid-state');
    for (const type of [sales, support])
      expect((await call('DELETE', `/api/v1/event-types/${type.id}`, acme)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/v1/holders/${bob.id}`, acme)).statusCode).toBe(204);
  });
});

describe('the OpenAPI document', () => {
  it('when it describes event types, then assignment, hosts and scheduleId are documented fields of the resource and the bodies, and a PATCH’s 403 names the host of a team type', async () => {
    const document = await ok<{
      components: { schemas: Record<string, { properties: Record<string, { description?: string }> }> };
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    }>('GET', '/api/v1/openapi.json', acme);
    for (const name of ['EventType', 'CreateEventType', 'UpdateEventType'])
      for (const field of ['assignment', 'hosts', 'scheduleId'])
        expect(document.components.schemas[name]!.properties[field], `${name}.${field}`).toBeDefined();
    expect(document.components.schemas.EventType!.properties.hosts!.description).toMatch(/team event type/);
    for (const method of ['patch', 'delete'])
      expect(document.paths['/api/v1/event-types/{id}']![method]!.responses['403']!.description).toMatch(/host/);
  });
});
