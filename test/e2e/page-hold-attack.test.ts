// Issue 25, finding 1, against the built server over real HTTP: anonymous clients picking time
// after time on a holder's booking page (each pick a new session, as the attack made them) cannot
// keep a real guest from booking; nor on a team's page (contract §14), whose holds occupy every
// host. Clients are told apart by their source address: each binds its connections to its own
// loopback address (127.0.0.x), as distinct hosts would arrive.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createKey, ensureBuilt, runCli, startServer, tempStore, type Server, type TempStore } from './support.js';

let store: TempStore;
let server: Server;
let token: string;
let day: string;
/** The team's account key, and a day of its collective type with plenty of free times. */
let teamToken: string;
let teamDay: string;
const HOLDER_PAGE = '/book/alice/quick-call';
const TEAM_PAGE = '/team/acme/quick-team';

/** An answer as the tests read it. */
interface Answer {
  status: number;
  location: string | undefined;
  cookies: string[];
  text: string;
}

/**
 * A client at `address` with no cookies: a new browser session for every pick, as the attack
 * made them. Node's own http client, because it binds a connection to a local address
 * (`localAddress`), which undici's connector leaves out.
 */
function clientAt(address: string, page = HOLDER_PAGE, date = () => day) {
  const send = (path: string, init: { method?: string; body?: string; cookie?: string } = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const request = httpRequest(
        `${server.url}${path}`,
        {
          method: init.method ?? 'GET',
          localAddress: address,
          agent: false,
          headers: {
            ...(init.cookie ? { cookie: init.cookie } : {}),
            ...(init.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode!,
              location: response.headers.location,
              cookies: response.headers['set-cookie'] ?? [],
              text,
            }),
          );
        },
      );
      request.on('error', reject);
      request.end(init.body);
    });
  return {
    /** Opens the page in a fresh session and picks the `index`th time of the day; the pick's redirect and the session's cookies. */
    async pick(index: number): Promise<{ location: string; cookie: string }> {
      const shown = await send(`${page}?date=${date()}&tz=UTC`);
      expect(shown.status).toBe(200);
      const cookie = shown.cookies.map((line) => line.split(';')[0]).join('; ');
      const forms = [...shown.text.matchAll(/<form method="post" action="[^"]*\/hold">.*?<\/form>/g)];
      const fields = new URLSearchParams(
        [...forms[index]![0].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [
          m[1]!,
          m[2]!,
        ]),
      );
      const picked = await send(`${page}/hold`, { method: 'POST', body: fields.toString(), cookie });
      expect(picked.status).toBe(303);
      return { location: picked.location!, cookie };
    },
    /** Picks the `index`th time and books it with the form: the booking's redirect. */
    async book(index: number): Promise<{ picked: string; booked: string }> {
      const { location, cookie } = await this.pick(index);
      const form = await send(location, { cookie });
      expect(form.status).toBe(200);
      const fields = new URLSearchParams(
        [...form.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [m[1]!, m[2]!]),
      );
      fields.set('name', 'Real Guest');
      fields.set('email', 'guest@example.com');
      const booked = await send(`${page}/book`, { method: 'POST', body: fields.toString(), cookie });
      expect(booked.status).toBe(303);
      return { picked: location, booked: booked.location! };
    },
  };
}

beforeAll(async () => {
  ensureBuilt();
  store = tempStore();
  token = await createKey(store.databaseUrl, 'alice');
  server = await startServer(store.databaseUrl);
  const created = await api(server, token, 'POST', '/api/v1/event-types', {
    title: 'Quick call',
    durationMinutes: 5,
    public: true,
  });
  expect(created.status).toBe(201);
  day = await busyDayOf(token, created.body.id);

  // A team of two hosts in the account acme, with a public collective type.
  const made = await runCli(['keys', 'create', '--account', 'acme'], { DATABASE_URL: store.databaseUrl });
  expect(made.code, made.stderr).toBe(0);
  teamToken = made.stdout.trim();
  const hostIds: string[] = [];
  for (const name of ['bob', 'carol']) {
    const holder = await api(server, teamToken, 'POST', '/api/v1/holders', { name });
    expect(holder.status).toBe(201);
    hostIds.push(holder.body.id);
  }
  const team = await api(server, teamToken, 'POST', '/api/v1/event-types', {
    title: 'Quick team',
    durationMinutes: 5,
    public: true,
    assignment: 'collective',
    hosts: hostIds.map((holderId) => ({ holderId })),
  });
  expect(team.status).toBe(201);
  teamDay = await busyDayOf(teamToken, team.body.id);
}, 60_000);

/** A day of the coming week with plenty of free times of the event type. */
async function busyDayOf(key: string, eventTypeId: string): Promise<string> {
  const from = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const slots = await api(
    server,
    key,
    'GET',
    `/api/v1/slots?eventTypeId=${eventTypeId}&from=${from}T00:00:00Z&to=${new Date(Date.parse(from) + 7 * 86_400_000).toISOString()}`,
  );
  const perDay = new Map<string, number>();
  for (const slot of slots.body.data as Array<{ start: string }>) {
    perDay.set(slot.start.slice(0, 10), (perDay.get(slot.start.slice(0, 10)) ?? 0) + 1);
  }
  return [...perDay].find(([, count]) => count >= 60)![0];
}

afterAll(async () => {
  await server?.stop();
  store?.remove();
});

describe('a booking page under the attack of issue 25, finding 1', () => {
  it('when one address picks 22 times in 22 new sessions, then it holds two times and a real guest holds and books at once', async () => {
    const attacker = clientAt('127.0.0.2');
    const started = performance.now();
    let held = 0;
    for (let i = 0; i < 22; i++) if ((await attacker.pick(i)).location.includes('hold=')) held++;
    const attackMs = performance.now() - started;
    expect(held).toBe(2);

    const guestStarted = performance.now();
    const guest = await clientAt('127.0.0.3').book(30);
    const guestMs = performance.now() - guestStarted;
    expect(guest.picked).toContain('hold=');
    expect(guest.booked).toMatch(/^\/manage\//);
    console.log(
      `finding 1: 22 picks from one address in ${attackMs.toFixed(0)} ms held ${held}; a guest at another address held and booked in ${guestMs.toFixed(0)} ms`,
    );
    const holds = await api(server, token, 'GET', '/api/v1/holds');
    expect(holds.body.data.map((hold: { source: string }) => hold.source)).toEqual(['page', 'page']);
  }, 60_000);

  it('when ten addresses take every page hold of the holder, then a guest still books a free time from the form', async () => {
    for (let a = 0; a < 10; a++) {
      const client = clientAt(`127.0.0.${10 + a}`);
      for (let i = 0; i < 2; i++) await client.pick(40 + a * 2 + i);
    }
    const holds = await api(server, token, 'GET', '/api/v1/holds');
    expect(holds.body.data.length).toBe(20);
    const guestStarted = performance.now();
    const guest = await clientAt('127.0.0.4').book(35);
    const guestMs = performance.now() - guestStarted;
    expect(guest.picked).not.toContain('hold=');
    expect(guest.booked).toMatch(/^\/manage\//);
    console.log(
      `finding 1: with all 20 page holds taken by ten addresses, a guest booked from the form in ${guestMs.toFixed(0)} ms`,
    );
  }, 60_000);
});

describe('a team’s booking page under the same attack (contract §14)', () => {
  const teamClientAt = (address: string) => clientAt(address, TEAM_PAGE, () => teamDay);

  it('when one address picks 22 times in 22 new sessions, then it holds two times, each on both hosts, and a real guest holds and books at once', async () => {
    const attacker = teamClientAt('127.0.0.32');
    let held = 0;
    for (let i = 0; i < 22; i++) if ((await attacker.pick(i)).location.includes('hold=')) held++;
    expect(held).toBe(2);
    const guest = await teamClientAt('127.0.0.33').book(30);
    expect(guest.picked).toContain('hold=');
    expect(guest.booked).toMatch(/^\/manage\//);
    const holds = await api(server, teamToken, 'GET', '/api/v1/holds');
    expect(holds.body.data.map((hold: { source: string; hostIds: string[] }) => hold.hostIds.length)).toEqual([2, 2]);
  }, 60_000);

  it('when ten addresses take every page hold of the hosts, then a guest still books a free time from the form', async () => {
    for (let a = 0; a < 10; a++) {
      const client = teamClientAt(`127.0.0.${40 + a}`);
      for (let i = 0; i < 2; i++) await client.pick(40 + a * 2 + i);
    }
    const holds = await api(server, teamToken, 'GET', '/api/v1/holds');
    // The two of the first test's attacker, and 18 more: each host has its 20.
    expect(holds.body.data.length).toBe(20);
    const guest = await teamClientAt('127.0.0.34').book(35);
    expect(guest.picked).not.toContain('hold=');
    expect(guest.booked).toMatch(/^\/manage\//);
  }, 60_000);
});
