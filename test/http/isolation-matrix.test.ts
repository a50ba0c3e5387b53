// Isolation as a matrix (contract §12): every route that names a resource, for a resource of the
// caller's own holder, a sibling holder of the same account, a holder of another account and a
// deleted holder, called with a holder key, an account key (account scope) and an account key
// acting for the own holder (Slotwise-Holder). Where the caller may not reach the resource, the
// answer is exactly the answer for an id that exists for nobody, and nothing changes. Team event
// types (contract §14), the account's own, have a matrix of their own: hosts read them and may
// not change them (403), every other holder and account answers as for an unknown id; their
// bookings are reached by the account and by their hosts, their holds by the account alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createApiKey } from '../../src/app/api-keys.js';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, book, createEventType } from './helpers.js';

type Owner = 'own' | 'sibling' | 'other' | 'deleted';
type ActorName = 'holder key' | 'account key' | 'account key + header';
const OWNERS: Owner[] = ['own', 'sibling', 'other', 'deleted'];
const ACTORS: ActorName[] = ['holder key', 'account key', 'account key + header'];

/** What one holder has, each made with its own key. */
interface Holdings {
  account: string;
  name: string;
  holderId: string;
  token: string;
  keyId: string;
  eventTypeId: string;
  bookingId: string;
  holdId: string;
  webhookId: string;
  sourceId: string;
  scheduleId: string;
}

interface Actor {
  token: string;
  headers: Record<string, string>;
}

type Kind = 'eventType' | 'booking' | 'hold' | 'webhook' | 'source' | 'schedule' | 'holder' | 'key';

/** A route that names a resource of some holder, by id in its path or by `eventTypeId`. */
interface Route {
  name: string;
  kind: Kind;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: (id: string, of: Holdings) => string;
  body?: (id: string) => unknown;
  /** Ends or removes the resource: where allowed, run on a resource made for the call. */
  destructive?: boolean;
}

const UNKNOWN: Record<Kind, string> = {
  eventType: 'evt_00000000000000000000',
  booking: 'bkg_00000000000000000000',
  hold: 'hld_00000000000000000000',
  webhook: 'whk_00000000000000000000',
  source: 'cal_00000000000000000000',
  schedule: 'sch_00000000000000000000',
  holder: 'hdr_00000000000000000000',
  key: 'key_00000000000000000000',
};

const RANGE = 'from=2026-01-05T00:00:00Z&to=2026-01-10T00:00:00Z';
/** A schedule besides the default one (contract §13). */
const SCHEDULE = {
  name: 'Evenings',
  timeZone: 'Europe/Berlin',
  weekly: { monday: [{ start: '18:00', end: '20:00' }] },
};

const ROUTES: Route[] = [
  { name: 'get an event type', kind: 'eventType', method: 'GET', url: (id) => `/api/v1/event-types/${id}` },
  {
    name: 'change an event type',
    kind: 'eventType',
    method: 'PATCH',
    url: (id) => `/api/v1/event-types/${id}`,
    body: () => ({ description: 'changed by the matrix' }),
  },
  {
    name: 'delete an event type',
    kind: 'eventType',
    method: 'DELETE',
    url: (id) => `/api/v1/event-types/${id}`,
    destructive: true,
  },
  {
    name: 'list slots of an event type',
    kind: 'eventType',
    method: 'GET',
    url: (id) => `/api/v1/slots?eventTypeId=${id}&${RANGE}`,
  },
  {
    name: 'book an event type',
    kind: 'eventType',
    method: 'POST',
    url: () => '/api/v1/bookings',
    body: (id) => ({ eventTypeId: id, start: nextStart(), guestName: 'Mallory', guestEmail: 'm@example.com' }),
  },
  {
    name: 'hold an event type',
    kind: 'eventType',
    method: 'POST',
    url: () => '/api/v1/holds',
    body: (id) => ({ eventTypeId: id, start: nextStart() }),
  },
  { name: 'get a booking', kind: 'booking', method: 'GET', url: (id) => `/api/v1/bookings/${id}` },
  {
    name: 'list a booking’s notifications',
    kind: 'booking',
    method: 'GET',
    url: (id) => `/api/v1/bookings/${id}/notifications`,
  },
  {
    name: 'change a booking’s metadata',
    kind: 'booking',
    method: 'PATCH',
    url: (id) => `/api/v1/bookings/${id}`,
    body: () => ({ metadata: { by: 'matrix' } }),
  },
  {
    name: 'cancel a booking',
    kind: 'booking',
    method: 'POST',
    url: (id) => `/api/v1/bookings/${id}/cancel`,
    body: () => ({ reason: 'matrix' }),
    destructive: true,
  },
  {
    name: 'reschedule a booking',
    kind: 'booking',
    method: 'POST',
    url: (id) => `/api/v1/bookings/${id}/reschedule`,
    body: () => ({ start: nextStart() }),
    destructive: true,
  },
  { name: 'get a hold', kind: 'hold', method: 'GET', url: (id) => `/api/v1/holds/${id}` },
  { name: 'release a hold', kind: 'hold', method: 'DELETE', url: (id) => `/api/v1/holds/${id}`, destructive: true },
  { name: 'get a webhook', kind: 'webhook', method: 'GET', url: (id) => `/api/v1/webhooks/${id}` },
  {
    name: 'change a webhook',
    kind: 'webhook',
    method: 'PATCH',
    url: (id) => `/api/v1/webhooks/${id}`,
    body: () => ({ description: 'changed by the matrix' }),
  },
  {
    name: 'delete a webhook',
    kind: 'webhook',
    method: 'DELETE',
    url: (id) => `/api/v1/webhooks/${id}`,
    destructive: true,
  },
  {
    name: 'list a webhook’s deliveries',
    kind: 'webhook',
    method: 'GET',
    url: (id) => `/api/v1/webhooks/${id}/deliveries`,
  },
  {
    name: 'send a webhook a test event',
    kind: 'webhook',
    method: 'POST',
    url: (id) => `/api/v1/webhooks/${id}/test`,
  },
  { name: 'get a calendar source', kind: 'source', method: 'GET', url: (id) => `/api/v1/calendar-sources/${id}` },
  {
    name: 'change a calendar source',
    kind: 'source',
    method: 'PATCH',
    url: (id) => `/api/v1/calendar-sources/${id}`,
    body: () => ({ name: 'Changed by the matrix' }),
  },
  {
    name: 'delete a calendar source',
    kind: 'source',
    method: 'DELETE',
    url: (id) => `/api/v1/calendar-sources/${id}`,
    destructive: true,
  },
  {
    name: 'sync a calendar source now',
    kind: 'source',
    method: 'POST',
    url: (id) => `/api/v1/calendar-sources/${id}/sync`,
    // Once per source each 30 s: each allowed call syncs a source made for it.
    destructive: true,
  },
  { name: 'get a schedule', kind: 'schedule', method: 'GET', url: (id) => `/api/v1/schedules/${id}` },
  {
    name: 'replace a schedule',
    kind: 'schedule',
    method: 'PUT',
    url: (id) => `/api/v1/schedules/${id}`,
    body: () => ({
      name: 'Replaced by the matrix',
      timeZone: 'UTC',
      weekly: { monday: [{ start: '06:00', end: '07:00' }] },
    }),
  },
  {
    name: 'delete a schedule',
    kind: 'schedule',
    method: 'DELETE',
    url: (id) => `/api/v1/schedules/${id}`,
    destructive: true,
  },
  { name: 'get a holder', kind: 'holder', method: 'GET', url: (id) => `/api/v1/holders/${id}` },
  {
    name: 'change a holder',
    kind: 'holder',
    method: 'PATCH',
    url: (id) => `/api/v1/holders/${id}`,
    body: () => ({ displayName: 'Changed by the matrix' }),
  },
  { name: 'list a holder’s keys', kind: 'holder', method: 'GET', url: (id) => `/api/v1/holders/${id}/keys` },
  {
    name: 'give a holder a key',
    kind: 'holder',
    method: 'POST',
    url: (id) => `/api/v1/holders/${id}/keys`,
    body: () => ({ scopes: ['read'] }),
  },
  {
    name: 'revoke a holder’s key',
    kind: 'key',
    method: 'DELETE',
    url: (id, of) => `/api/v1/holders/${of.holderId}/keys/${id}`,
    destructive: true,
  },
];

/** What each actor may do with a resource of each owner (contract §12). */
type Expectation = 'allowed' | 'denied' | 'needs the header' | 'past changing';

function expectation(actor: ActorName, owner: Owner, route: Route): Expectation {
  const holderRoute = route.kind === 'holder' || route.kind === 'key';
  if (actor !== 'account key') {
    // Acting for one holder: its own resources only; `/holders…` exists only in account scope.
    if (holderRoute) return 'denied';
    return owner === 'own' ? 'allowed' : 'denied';
  }
  // Account scope: what exists once per holder needs the header, whoever's it is.
  if (route.kind === 'source' || route.kind === 'schedule') return 'needs the header';
  if (owner === 'other') return 'denied';
  // A deleted holder's bookings stay readable by its account, and are past changing (409).
  if (owner === 'deleted' && route.kind === 'booking') return route.method === 'GET' ? 'allowed' : 'past changing';
  if (owner === 'deleted') return 'denied';
  return 'allowed';
}

let h: Harness;
let accountKey: string;
const world = {} as Record<Owner, Holdings>;
/** globex's account key; acme's team event type, hosted by the own holder (ada) alone. */
let otherAccountKey: string;
let teamTypeId: string;

async function request(
  actor: Actor,
  method: Route['method'],
  url: string,
  json?: unknown,
): Promise<LightMyRequestResponse> {
  return h.request({
    method,
    url,
    token: actor.token,
    headers: actor.headers,
    ...(json === undefined ? {} : { json }),
  });
}

async function holdingsOf(account: string, name: string, slotHour: number): Promise<Holdings> {
  const { key, token } = await createApiKey(h.context, {
    accountName: account,
    holderName: name,
    scopes: ['read', 'write'],
    expiresAt: null,
  });
  const eventType = await createEventType(h, token, { title: `${name} call` });
  const booking = await book(h, token, eventType.id, `2026-01-05T${String(slotHour).padStart(2, '0')}:00:00Z`);
  const actor = { token, headers: {} };
  const hold = await request(actor, 'POST', '/api/v1/holds', {
    eventTypeId: eventType.id,
    start: `2026-01-08T${String(slotHour).padStart(2, '0')}:00:00Z`,
  });
  const webhook = await request(actor, 'POST', '/api/v1/webhooks', { url: `https://${name}.example.com/hook` });
  const source = await request(actor, 'POST', '/api/v1/calendar-sources', {
    type: 'ics',
    url: `http://127.0.0.1:9/${name}.ics`,
  });
  const schedule = await request(actor, 'POST', '/api/v1/schedules', SCHEDULE);
  for (const made of [hold, webhook, source, schedule]) expect(made.statusCode, made.body).toBe(201);
  return {
    account,
    name,
    holderId: key.holderId!,
    token,
    keyId: key.id,
    eventTypeId: eventType.id,
    bookingId: booking.id,
    holdId: hold.json<{ id: string }>().id,
    webhookId: webhook.json<{ id: string }>().id,
    sourceId: source.json<{ id: string }>().id,
    scheduleId: schedule.json<{ id: string }>().id,
  };
}

function idOf(kind: Kind, of: Holdings): string {
  switch (kind) {
    case 'eventType':
      return of.eventTypeId;
    case 'booking':
      return of.bookingId;
    case 'hold':
      return of.holdId;
    case 'webhook':
      return of.webhookId;
    case 'source':
      return of.sourceId;
    case 'schedule':
      return of.scheduleId;
    case 'holder':
      return of.holderId;
    case 'key':
      return of.keyId;
  }
}

function actorOf(name: ActorName): Actor {
  if (name === 'holder key') return { token: world.own.token, headers: {} };
  if (name === 'account key') return { token: accountKey, headers: {} };
  return { token: accountKey, headers: { 'slotwise-holder': world.own.holderId } };
}

/** An answer as a client can tell answers apart, with the id it named replaced. */
function shape(res: LightMyRequestResponse, id: string): unknown {
  return {
    status: res.statusCode,
    contentType: res.headers['content-type'],
    body: res.body.split(id).join('<id>'),
  };
}

/** Every resource as its owner's key sees it (the deleted holder's through the account key). */
async function snapshot(): Promise<unknown> {
  const views: Record<string, unknown> = {};
  for (const owner of OWNERS) {
    const of = world[owner];
    const actor: Actor = owner === 'deleted' ? { token: accountKey, headers: {} } : { token: of.token, headers: {} };
    for (const [kind, url] of [
      ['eventType', `/api/v1/event-types/${of.eventTypeId}`],
      ['booking', `/api/v1/bookings/${of.bookingId}`],
      ['hold', `/api/v1/holds/${of.holdId}`],
      ['webhook', `/api/v1/webhooks/${of.webhookId}`],
      ['source', `/api/v1/calendar-sources/${of.sourceId}`],
      ['schedule', `/api/v1/schedules/${of.scheduleId}`],
      ['availability', '/api/v1/availability'],
      ['bookings', `/api/v1/bookings?${RANGE}`],
    ] as const) {
      const res = await request(actor, 'GET', url);
      views[`${owner} ${kind}`] = { status: res.statusCode, body: res.body };
    }
  }
  return views;
}

beforeAll(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  accountKey = (
    await createApiKey(h.context, { accountName: 'acme', holderName: null, scopes: ['read', 'write'], expiresAt: null })
  ).token;
  world.own = await holdingsOf('acme', 'ada', 9);
  world.sibling = await holdingsOf('acme', 'bea', 10);
  world.other = await holdingsOf('globex', 'cy', 11);
  world.deleted = await holdingsOf('acme', 'dee', 12);
  // A holder with a future booking cannot be deleted: its booking is cancelled first, and stays
  // readable by the account afterwards.
  const account = { token: accountKey, headers: {} };
  expect((await request(account, 'POST', `/api/v1/bookings/${world.deleted.bookingId}/cancel`, {})).statusCode).toBe(
    200,
  );
  const deleted = await request(account, 'DELETE', `/api/v1/holders/${world.deleted.holderId}`);
  expect(deleted.statusCode, deleted.body).toBe(204);
  otherAccountKey = (
    await createApiKey(h.context, {
      accountName: 'globex',
      holderName: null,
      scopes: ['read', 'write'],
      expiresAt: null,
    })
  ).token;
  teamTypeId = await freshTeamType();
}, 60_000);

/** A team event type of acme hosted by the own holder alone, made in account scope. */
async function freshTeamType(): Promise<string> {
  const made = await request({ token: accountKey, headers: {} }, 'POST', '/api/v1/event-types', {
    title: 'Team call',
    durationMinutes: 30,
    assignment: 'round-robin',
    hosts: [{ holderId: world.own.holderId }],
  });
  expect(made.statusCode, made.body).toBe(201);
  return made.json<{ id: string }>().id;
}

afterAll(async () => {
  await h.close();
});

describe('the isolation matrix: route × owner × key', () => {
  const cells = ROUTES.flatMap((route) =>
    ACTORS.flatMap((actor) =>
      OWNERS.map((owner) => ({ route, actor, owner, expected: expectation(actor, owner, route) })),
    ),
  );

  it(`when a caller may not reach a resource, then the answer is the unknown id's and nothing changes (${cells.filter((c) => c.expected !== 'allowed').length} cells)`, async () => {
    const before = await snapshot();
    for (const { route, actor, owner, expected } of cells) {
      if (expected === 'allowed') continue;
      const where = `${route.name} · ${owner} · ${actor}`;
      const of = world[owner];
      const id = idOf(route.kind, of);
      const caller = actorOf(actor);
      const answer = await request(caller, route.method, route.url(id, of), route.body?.(id));
      if (expected === 'past changing') {
        expect(answer.statusCode, `${where}: ${answer.body}`).toBe(409);
        expect(answer.json<{ type: string }>().type, where).toBe('urn:service:problem:invalid-state');
        continue;
      }
      if (expected === 'needs the header') {
        expect(answer.statusCode, where).toBe(400);
        expect(
          answer.json<{ errors: Array<{ field: string }> }>().errors.map((e) => e.field),
          where,
        ).toContain('Slotwise-Holder');
        continue;
      }
      const unknownId = UNKNOWN[route.kind];
      const unknown = await request(caller, route.method, route.url(unknownId, of), route.body?.(unknownId));
      expect(answer.statusCode, `${where}: ${answer.body}`).toBeGreaterThanOrEqual(400);
      expect(shape(answer, id), where).toEqual(shape(unknown, unknownId));
    }
    expect(await snapshot()).toEqual(before);
  });

  it(`when a caller may reach a resource, then the route does what it says (${cells.filter((c) => c.expected === 'allowed').length} cells)`, async () => {
    for (const { route, actor, owner, expected } of cells) {
      if (expected !== 'allowed') continue;
      const where = `${route.name} · ${owner} · ${actor}`;
      // What a call ends or removes is made for that call, so each cell starts alike.
      const of = world[owner];
      const id = route.destructive ? await fresh(route.kind, of) : idOf(route.kind, of);
      const answer = await request(actorOf(actor), route.method, route.url(id, of), route.body?.(id));
      expect(answer.statusCode, `${where}: ${answer.body}`).toBeLessThan(300);
    }
  });
});

describe('the isolation matrix: lists × key', () => {
  const LISTS: Array<{ url: string; kinds: Kind[] }> = [
    { url: '/api/v1/event-types', kinds: ['eventType'] },
    { url: `/api/v1/bookings?${RANGE}`, kinds: ['booking'] },
    { url: '/api/v1/holds', kinds: ['hold'] },
    { url: '/api/v1/webhooks', kinds: ['webhook'] },
    { url: '/api/v1/calendar-sources', kinds: ['source'] },
    { url: '/api/v1/schedules', kinds: ['schedule'] },
    { url: '/api/v1/holders', kinds: ['holder'] },
  ];

  it('when each key lists each collection, then it finds exactly what it may reach of the world: its own, and for the account key its siblings’ too, never another account’s', async () => {
    for (const actor of ACTORS) {
      for (const list of LISTS) {
        const answer = await request(actorOf(actor), 'GET', list.url);
        const where = `${list.url} · ${actor}`;
        const perHolderOnly = list.kinds.includes('source') || list.kinds.includes('schedule');
        const accountOnly = list.kinds.includes('holder');
        if (actor === 'account key' && perHolderOnly) {
          expect(answer.statusCode, where).toBe(400);
          continue;
        }
        if (actor !== 'account key' && accountOnly) {
          expect(answer.statusCode, where).toBe(404);
          continue;
        }
        expect(answer.statusCode, `${where}: ${answer.body}`).toBe(200);
        const listed = new Set(answer.json<{ data: Array<{ id: string }> }>().data.map((item) => item.id));
        for (const owner of OWNERS) {
          const id = idOf(list.kinds[0]!, world[owner]);
          const reachable = owner === 'own' || (actor === 'account key' && owner === 'sibling');
          // A deleted holder's confirmed bookings were cancelled before it went, its holds released.
          if (owner !== 'deleted' || list.kinds[0] !== 'booking')
            expect(listed.has(id), `${where} · ${owner}`).toBe(reachable);
        }
      }
    }
  });
});

describe('the isolation matrix: team event types × key (contract §14)', () => {
  type TeamActor =
    | 'account key'
    | 'host’s key'
    | 'account key for the host'
    | 'sibling’s key'
    | 'account key for the sibling'
    | 'other account’s holder key'
    | 'other account’s key';
  const TEAM_ACTORS: TeamActor[] = [
    'account key',
    'host’s key',
    'account key for the host',
    'sibling’s key',
    'account key for the sibling',
    'other account’s holder key',
    'other account’s key',
  ];
  const teamActor = (actor: TeamActor): Actor => {
    switch (actor) {
      case 'account key':
        return { token: accountKey, headers: {} };
      case 'host’s key':
        return { token: world.own.token, headers: {} };
      case 'account key for the host':
        return { token: accountKey, headers: { 'slotwise-holder': world.own.holderId } };
      case 'sibling’s key':
        return { token: world.sibling.token, headers: {} };
      case 'account key for the sibling':
        return { token: accountKey, headers: { 'slotwise-holder': world.sibling.holderId } };
      case 'other account’s holder key':
        return { token: world.other.token, headers: {} };
      case 'other account’s key':
        return { token: otherAccountKey, headers: {} };
    }
  };
  const TEAM_ROUTES: Array<{ method: 'GET' | 'PATCH' | 'DELETE'; body?: unknown }> = [
    { method: 'GET' },
    { method: 'PATCH', body: { description: 'changed by the matrix' } },
    { method: 'DELETE' },
  ];
  const isHost = (actor: TeamActor) => actor === 'host’s key' || actor === 'account key for the host';

  it(`when a holder or account other than the team type’s own reaches for it, then the answer is the unknown id’s; a host reads it and gets 403 for a change; nothing changes (${TEAM_ACTORS.length * TEAM_ROUTES.length} cells)`, async () => {
    const before = await request(teamActor('account key'), 'GET', `/api/v1/event-types/${teamTypeId}`);
    expect(before.statusCode, before.body).toBe(200);
    const unknownId = UNKNOWN.eventType;
    for (const actor of TEAM_ACTORS) {
      for (const route of TEAM_ROUTES) {
        const where = `${route.method} a team event type · ${actor}`;
        const caller = teamActor(actor);
        if (actor === 'account key') {
          // Allowed: run on a team type made for the call, so that the others still find theirs.
          const id = route.method === 'GET' ? teamTypeId : await freshTeamType();
          const answer = await request(caller, route.method, `/api/v1/event-types/${id}`, route.body);
          expect(answer.statusCode, `${where}: ${answer.body}`).toBeLessThan(300);
          continue;
        }
        const answer = await request(caller, route.method, `/api/v1/event-types/${teamTypeId}`, route.body);
        if (isHost(actor) && route.method === 'GET') {
          expect(answer.statusCode, where).toBe(200);
          expect(answer.body, where).toBe(before.body);
        } else if (isHost(actor)) {
          expect(answer.statusCode, `${where}: ${answer.body}`).toBe(403);
          expect(answer.json<{ type: string }>().type, where).toBe('urn:service:problem:forbidden');
        } else {
          const unknown = await request(caller, route.method, `/api/v1/event-types/${unknownId}`, route.body);
          expect(answer.statusCode, where).toBe(404);
          expect(shape(answer, teamTypeId), where).toEqual(shape(unknown, unknownId));
        }
      }
    }
    expect((await request(teamActor('account key'), 'GET', `/api/v1/event-types/${teamTypeId}`)).body).toBe(
      before.body,
    );
  });

  it('when each key lists event types, then the team type is listed for the account key and its host, never for another holder or account', async () => {
    for (const actor of TEAM_ACTORS) {
      const answer = await request(teamActor(actor), 'GET', '/api/v1/event-types?limit=100');
      expect(answer.statusCode, actor).toBe(200);
      const listed = answer.json<{ data: Array<{ id: string }> }>().data.map((item) => item.id);
      expect(listed.includes(teamTypeId), actor).toBe(actor === 'account key' || isHost(actor));
    }
  });
});

describe('the isolation matrix: team bookings and holds × key (contract §14)', () => {
  type TeamActor =
    | 'account key'
    | 'host’s key'
    | 'account key for the host'
    | 'sibling’s key'
    | 'account key for the sibling'
    | 'other account’s holder key'
    | 'other account’s key';
  const TEAM_ACTORS: TeamActor[] = [
    'account key',
    'host’s key',
    'account key for the host',
    'sibling’s key',
    'account key for the sibling',
    'other account’s holder key',
    'other account’s key',
  ];
  const teamActor = (actor: TeamActor): Actor => {
    switch (actor) {
      case 'account key':
        return { token: accountKey, headers: {} };
      case 'host’s key':
        return { token: world.own.token, headers: {} };
      case 'account key for the host':
        return { token: accountKey, headers: { 'slotwise-holder': world.own.holderId } };
      case 'sibling’s key':
        return { token: world.sibling.token, headers: {} };
      case 'account key for the sibling':
        return { token: accountKey, headers: { 'slotwise-holder': world.sibling.holderId } };
      case 'other account’s holder key':
        return { token: world.other.token, headers: {} };
      case 'other account’s key':
        return { token: otherAccountKey, headers: {} };
    }
  };
  const isHost = (actor: TeamActor) => actor === 'host’s key' || actor === 'account key for the host';
  const TEAM_BOOKING_ROUTES = ROUTES.filter((route) => route.kind === 'booking');
  const TEAM_HOLD_ROUTES = ROUTES.filter((route) => route.kind === 'hold');

  /** A team booking or hold of the matrix's team type (hosted by the own holder), made by the account. */
  async function freshTeam(kind: 'booking' | 'hold'): Promise<string> {
    const made = await request(
      teamActor('account key'),
      'POST',
      kind === 'booking' ? '/api/v1/bookings' : '/api/v1/holds',
      {
        eventTypeId: teamTypeId,
        start: nextStart(),
        ...(kind === 'booking' ? { guestName: 'Team guest', guestEmail: 'team@example.com' } : {}),
      },
    );
    expect(made.statusCode, made.body).toBe(201);
    return made.json<{ id: string }>().id;
  }

  /** A team booking reaches the account and its hosts; a team hold the account alone (contract §14). */
  const reaches = (actor: TeamActor, kind: 'booking' | 'hold') =>
    actor === 'account key' || (kind === 'booking' && isHost(actor));

  it('when a key reaches for a team booking or hold, then the account and (bookings) a host act on it; every other holder and account gets the unknown id’s answer, and nothing changes', async () => {
    const bookingId = await freshTeam('booking');
    const holdId = await freshTeam('hold');
    const seen = async () => [
      (await request(teamActor('account key'), 'GET', `/api/v1/bookings/${bookingId}`)).body,
      (await request(teamActor('account key'), 'GET', `/api/v1/holds/${holdId}`)).body,
    ];
    const before = await seen();
    for (const [kind, routes, id] of [
      ['booking', TEAM_BOOKING_ROUTES, bookingId],
      ['hold', TEAM_HOLD_ROUTES, holdId],
    ] as const) {
      for (const route of routes) {
        for (const actor of TEAM_ACTORS) {
          const where = `${route.name} (team) · ${actor}`;
          const caller = teamActor(actor);
          if (reaches(actor, kind)) {
            const target = route.destructive || route.method !== 'GET' ? await freshTeam(kind) : id;
            const answer = await request(caller, route.method, route.url(target, world.own), route.body?.(target));
            expect(answer.statusCode, `${where}: ${answer.body}`).toBeLessThan(300);
            continue;
          }
          const answer = await request(caller, route.method, route.url(id, world.own), route.body?.(id));
          const unknownId = UNKNOWN[kind];
          const unknown = await request(caller, route.method, route.url(unknownId, world.own), route.body?.(unknownId));
          expect(answer.statusCode, `${where}: ${answer.body}`).toBe(404);
          expect(shape(answer, id), where).toEqual(shape(unknown, unknownId));
        }
      }
    }
    expect(await seen()).toEqual(before);
  });

  it('when each key lists bookings and holds, then a team booking is listed for the account and its host, a team hold for the account alone', async () => {
    const bookingId = await freshTeam('booking');
    const holdId = await freshTeam('hold');
    const far = 'from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z&limit=100';
    for (const actor of TEAM_ACTORS) {
      for (const [kind, url, id] of [
        ['booking', `/api/v1/bookings?${far}`, bookingId],
        ['hold', '/api/v1/holds?limit=100', holdId],
      ] as const) {
        const answer = await request(teamActor(actor), 'GET', url);
        expect(answer.statusCode, actor).toBe(200);
        const listed = answer.json<{ data: Array<{ id: string }> }>().data.map((item) => item.id);
        expect(listed.includes(id), `${kind} · ${actor}`).toBe(reaches(actor, kind));
      }
    }
  });
});

/** A new resource of that kind of the holder, made with its own key. */
async function fresh(kind: Kind, of: Holdings): Promise<string> {
  const owner = { token: of.token, headers: {} };
  const made = async (url: string, json: unknown) => {
    const res = await request(owner, 'POST', url, json);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  };
  switch (kind) {
    case 'eventType':
      return (await createEventType(h, of.token, { title: 'Fresh call' })).id;
    case 'booking':
      return (await book(h, of.token, of.eventTypeId, nextStart())).id;
    case 'hold':
      return made('/api/v1/holds', { eventTypeId: of.eventTypeId, start: nextStart() });
    case 'webhook':
      return made('/api/v1/webhooks', { url: `https://${of.name}.example.com/fresh` });
    case 'source':
      return made('/api/v1/calendar-sources', { type: 'ics', url: `http://127.0.0.1:9/${of.name}-fresh.ics` });
    case 'schedule':
      return made('/api/v1/schedules', SCHEDULE);
    case 'key':
      return (
        await createApiKey(h.context, {
          accountName: of.account,
          holderName: of.name,
          scopes: ['read'],
          expiresAt: null,
        })
      ).key.id;
    case 'holder':
      throw new Error('holders are not made per call');
  }
}

let startsTaken = 0;
/** A start no other call of the matrix uses: half-hours of the working days from 12 January on. */
function nextStart(): string {
  const n = startsTaken++;
  const day = new Date(Date.UTC(2026, 0, 12));
  day.setUTCDate(day.getUTCDate() + Math.floor(n / 16) + 2 * Math.floor(n / 80));
  day.setUTCHours(9, (n % 16) * 30);
  return day.toISOString();
}
