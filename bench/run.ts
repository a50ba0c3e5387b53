/**
 * `npm run bench`: the real server over real HTTP, each figure next to a floor measured in the
 * same run on the same machine. Prints a table; nothing here asserts anything.
 *
 *   npm run bench                 # SQLite (temporary file)
 *   npm run bench -- --postgres   # PostgreSQL (a temporary database on BENCH_POSTGRES_URL)
 *   DATABASE_URL=postgres://… npm run bench   # the same, on that server
 *   npm run bench -- --seconds 5  # shorter runs
 *   npm run bench -- --only realistic|worst-case|busy|pages|mixed|acting|teams|bookings|holds|seats|revocation   # one part
 *   npm run bench -- --smtp       # with SMTP_URL set: every booking e-mails its guest (contract §16), to a sink here
 *   BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npm run bench   # profile the server
 *   BENCH_FLOOR_NODE_ARGS=…       # the same for the floor servers
 *
 * Parts: slot queries of a realistic and a worst-case holder, of the realistic one with three
 * calendar sources (busy), booking pages, slot queries while the holder takes 20 bookings a second
 * (mixed), slot queries of 100 holders in turn by one account key acting for each (acting), bookings,
 * holds then bookings (checkout), the seats of 100-seat occurrences (seats), and how soon a second instance refuses a key the CLI revoked
 * (revocation). Each load part also prints the database statements per request.
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { PacedRun, PacingAnswer, PacingRequest } from './paced-bookings.js';
import type { SinkAnswer, SinkRequest } from './smtp-sink.js';
import { cpuTimeUs, databaseCpuUs, machineBusyUs } from './cpu.js';
import { durableWriteFloor, type WriteFloor } from './write-floor.js';

const { values: flags } = parseArgs({
  options: {
    postgres: { type: 'boolean' },
    seconds: { type: 'string' },
    only: { type: 'string' },
    smtp: { type: 'boolean' },
  },
});
const SECONDS = Number(flags.seconds ?? 10);
/** `DATABASE_URL=postgres://…` picks PostgreSQL as the server does; the figures then come from a temporary database on that server. */
const GIVEN_POSTGRES = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')
  ? process.env.DATABASE_URL
  : undefined;
const ON_POSTGRES = flags.postgres === true || GIVEN_POSTGRES !== undefined;
const POSTGRES_ADMIN =
  process.env.BENCH_POSTGRES_URL ?? GIVEN_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CLI = join(process.cwd(), 'dist/cli/main.js');
/** The node flags `npm start` gives the server (package.json): the bench measures what it runs. */
const SERVE_NODE_FLAGS = (JSON.parse(readFileSync('package.json', 'utf8')).scripts.start as string)
  .split(' ')
  .filter((word) => word.startsWith('--'));
const DAY = 86_400_000;
const HOUR = 3_600_000;
const RANGE_DAYS = 62;
const DISTINCT_FROMS = 500;
/** Answers the floor serves in turn: a sample of the real ones (all 500 of the worst case would be ~1 GB). */
const FLOOR_SAMPLES = 20;
/** The holders the `acting` part's account key acts for in turn. */
const ACTING_HOLDERS = 100;
/** Issue 28: a collective team type of this many hosts, and a round-robin one of this many. */
const COLLECTIVE_HOSTS = 10;
const ROUND_ROBIN_HOSTS = 50;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  /** The server process's CPU time (user + system) per request answered, in µs. */
  cpuPerRequestUs: number;
  /** Write loads: the whole machine's CPU per request (every process), and the database's (local PostgreSQL only). */
  machineCpuPerRequestUs?: number;
  databaseCpuPerRequestUs?: number | null;
  /** Requests per second in each saturation round. */
  roundRps: number[];
  /** Statements the server sent to its database per request over the saturation rounds (a floor has no database). */
  statementsPerRequest?: Statements;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'slotwise-bench-'));
  const database = ON_POSTGRES
    ? await createPostgresDatabase()
    : { url: `sqlite:${join(dir, 'bench.db')}`, drop: async () => {} };
  const port = await freePort();
  // `--smtp`: an SMTP server in a process of its own that accepts every message and keeps only a count.
  const smtp = flags.smtp ? await startSmtpSink() : undefined;
  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    RATE_LIMIT_PER_MINUTE: '0',
    PUBLIC_RATE_LIMIT_PER_MINUTE: '0',
    // Every load comes from one address, with more connections than one client is allowed by default.
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0',
    // The busy part's calendars are served on 127.0.0.1, and read again every second during its
    // loads: each read answers 304, which must cost the slot path nothing.
    CALENDAR_ALLOW_PRIVATE_TARGETS: 'true',
    CALENDAR_SYNC_INTERVAL_MS: '1000',
    // Required on PostgreSQL; one fixed key for the run (the given one if set).
    SLOTWISE_SECRET: process.env.SLOTWISE_SECRET || 'bench-secret-not-for-production-0123456789',
    ...(smtp && { SMTP_URL: smtp.url, EMAIL_FROM: 'Slotwise bench <bench@slotwise.example>' }),
  };
  const realisticKey = cli(['keys', 'create', '--holder', 'realistic'], env);
  const worstKey = cli(['keys', 'create', '--holder', 'worst-case'], env);
  const checkoutKey = cli(['keys', 'create', '--holder', 'checkout'], env);
  const busyKey = cli(['keys', 'create', '--holder', 'busy'], env);
  // Three calendars of 2,000 events each, served by this process: what the busy part subscribes.
  const calendarHost = await serveCalendars(Date.now());
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server under load.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const floorNodeArgs = process.env.BENCH_FLOOR_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  // Started as `npm start` starts it (package.json): with its young generation's bound.
  const server = spawn(process.execPath, [...SERVE_NODE_FLAGS, ...nodeArgs, CLI, 'serve'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const floors: ChildProcess[] = [];
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/healthz`);
    const now = Date.now();
    const runs = (part: string) => flags.only === undefined || flags.only === part;
    const realistic = await seedRealistic(base, realisticKey, now);
    const worst = await seedWorstCase(base, worstKey);
    const checkout = await seedWorstCase(base, checkoutKey);
    // On PostgreSQL the change poll starts with the first request; until it has answered, every
    // request reads the database, which is not what the parts measure.
    await untilHearing(base);
    const froms = Array.from({ length: DISTINCT_FROMS }, (_, i) => new Date(now + DAY + i * 7 * 60_000).toISOString());

    const report: string[] = [];
    const peaks: number[] = [];
    /**
     * Runs one part and reports its line with the server's peak RSS during that part alone: the
     * kernel's high-water mark is reset before it, so a part is not charged with an earlier one's peak.
     */
    const part = async (measure: () => Promise<string>) => {
      resetPeakRss(server.pid!);
      const line = await measure();
      const peak = peakRssMb(server.pid!);
      peaks.push(peak);
      report.push(`${line}\n  server peak RSS ${peak} MB`);
    };
    /** A read load on the server next to a bare server answering the same bodies (`floor-server.ts`). */
    const againstFloor = async (
      name: string,
      key: string,
      reads: Read[],
      contentType: string,
      alongside?: SideLoad,
    ) => {
      const payloads = await capturePayloads(base, key, reads.slice(0, FLOOR_SAMPLES));
      const floorPort = await freePort();
      const payloadFile = join(dir, `${name}.json`);
      writeFileSync(payloadFile, JSON.stringify(payloads.bodies));
      const floor = spawn(
        process.execPath,
        [
          ...floorNodeArgs,
          join(process.cwd(), 'dist-bench/bench/floor-server.js'),
          payloadFile,
          String(floorPort),
          contentType,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      floors.push(floor);
      await waitFor(`http://127.0.0.1:${floorPort}/`);
      const { real, bare } = await readLoads(
        { base, pid: server.pid! },
        { base: `http://127.0.0.1:${floorPort}`, pid: floor.pid! },
        key,
        reads,
        alongside,
      );
      // SIGTERM, so that a profiled floor writes its profile.
      floor.kill('SIGTERM');
      await new Promise((resolve) => floor.once('exit', resolve));
      return { real, bare, payloads };
    };
    for (const [name, holder] of [
      ['realistic', realistic],
      ['worst-case', worst],
    ] as const) {
      if (!runs(name)) continue;
      await part(async () => {
        const reads = slotReads(holder.eventTypeId, froms);
        const { real, bare, payloads } = await againstFloor(name, holder.key, reads, 'application/json; charset=utf-8');
        const slots = Math.round(
          payloads.bodies.reduce((sum, body) => sum + (JSON.parse(body) as { data: unknown[] }).data.length, 0) /
            payloads.bodies.length,
        );
        return row(
          `GET /slots 62 days, ${name} (${slots} slots, ${Math.round(payloads.bytes / 1024)} KiB)`,
          real,
          bare,
        );
      });
    }

    if (runs('busy'))
      await part(async () => {
        // The realistic holder again, with three calendar sources of 2,000 events each.
        const holder = await seedRealistic(base, busyKey, now);
        for (const name of ['work', 'personal', 'team']) {
          const created = await api(base, busyKey, 'POST', '/api/v1/calendar-sources', {
            type: 'ics',
            url: `${calendarHost.url}/${name}.ics`,
            name,
          });
          if (created.status !== 201)
            throw new Error(`calendar source: ${created.status} ${JSON.stringify(created.json)}`);
          const synced = await api(base, busyKey, 'POST', `/api/v1/calendar-sources/${created.json.id}/sync`, {});
          if (synced.json?.status !== 'ok')
            throw new Error(`calendar source did not sync: ${JSON.stringify(synced.json)}`);
        }
        const reads = slotReads(holder.eventTypeId, froms);
        const notModifiedBefore = calendarHost.notModified();
        const { real, bare, payloads } = await againstFloor('busy', busyKey, reads, 'application/json; charset=utf-8');
        return row(
          `GET /slots 62 days, realistic with 3 calendar sources of 2,000 events (${Math.round(payloads.bytes / 1024)} KiB; ` +
            `${calendarHost.notModified() - notModifiedBefore} unchanged syncs (304) during the loads)`,
          real,
          bare,
        );
      });

    if (runs('pages'))
      await part(async () => {
        // A guest's first look at the realistic holder's booking page: a month of its free times in
        // one of several zones, a new session and CSRF cookie each time (a load generator keeps none).
        await api(base, realisticKey, 'PATCH', `/api/v1/event-types/${realistic.eventTypeId}`, { public: true });
        const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney', 'UTC'];
        const months = [0, 1, 2].map((ahead) => {
          const date = new Date(now);
          date.setUTCDate(1);
          date.setUTCMonth(date.getUTCMonth() + ahead);
          return date.toISOString().slice(0, 7);
        });
        const reads = months.flatMap((month) =>
          zones.map((zone) => ({ path: `/book/realistic/intro-call?tz=${encodeURIComponent(zone)}&month=${month}` })),
        );
        const { real, bare, payloads } = await againstFloor('pages', realisticKey, reads, 'text/html; charset=utf-8');
        return row(
          `GET /book/{handle}/{slug} (a month in the guest's zone, ${Math.round(payloads.bytes / 1024)} KiB)`,
          real,
          bare,
        );
      });

    if (runs('mixed'))
      await part(async () => {
        // Issue 16: the realistic holder's slots read at saturation while it takes 20 bookings a
        // second (its 15-minute event type, so that each booking takes one start and nothing more).
        const quickCheck = (await api(base, realisticKey, 'GET', '/api/v1/event-types')).json.data.find(
          (type: { title: string }) => type.title === 'Quick check',
        ).id as string;
        const bookings = await PacedBookings.spawn(base, realisticKey, quickCheck, now + DAY, now + RANGE_DAYS * DAY);
        try {
          await bookings.calibrate(base);
          const reads = slotReads(realistic.eventTypeId, froms);
          const { real, bare } = await againstFloor(
            'mixed',
            realisticKey,
            reads,
            'application/json; charset=utf-8',
            bookings,
          );
          return [
            row(`GET /slots 62 days, realistic, while the holder takes 20 bookings/s (mixed)`, real, bare),
            bookings.summary(),
          ].join('\n');
        } finally {
          bookings.close();
        }
      });

    if (runs('teams'))
      await part(async () => {
        // Issue 28: team event types of an account of 50 holders, in three zones, each with a few
        // bookings of its own: a collective type of 10 of them and a round-robin type of all 50.
        // Cold: the first 62-day query of each (every host's calendar read and its track computed);
        // then the usual read load against the floor, the account key in account scope.
        const team = await seedTeams(base, env, now);
        const cold = [];
        for (const type of [team.collective, team.roundRobin]) {
          const started = performance.now();
          const answer = await api(base, team.key, 'GET', slotPath(type, froms[0]!));
          if (answer.status !== 200) throw new Error(`team slots: ${answer.status} ${JSON.stringify(answer.json)}`);
          cold.push(performance.now() - started);
        }
        const json = 'application/json; charset=utf-8';
        const collective = await againstFloor('team-collective', team.key, slotReads(team.collective, froms), json);
        const roundRobin = await againstFloor('team-round-robin', team.key, slotReads(team.roundRobin, froms), json);
        // The team booking path: 16 clients booking distinct starts of a round-robin type of 3
        // hosts (each booking judged for every host and given to one by the rule) and of a
        // collective type of the same 3 (each booking occupying all three).
        const bookers = await seedTeamBookers(base, env);
        const roundRobinBookings = await bookingLoad(base, server.pid!, bookers.roundRobin, now);
        const collectiveBookings = await bookingLoad(base, server.pid!, bookers.collective, now + 400 * DAY);
        const bookingLine = (label: string, figures: Figures) =>
          `POST /bookings of ${label}, 16 clients: ${figures.rps.toFixed(0)} bookings/s, p50 ${figures.p50} ms, ` +
          `p99 ${figures.p99} ms (target < 50 ms); server CPU per booking ${figures.cpuPerRequestUs.toFixed(0)} µs; ` +
          `database statements per booking ${statementsText(figures.statementsPerRequest!)}`;
        return [
          bookingLine('a round-robin type of 3 hosts', roundRobinBookings),
          bookingLine('a collective type of 3 hosts', collectiveBookings),
          `cold 62-day team slot queries: collective of ${COLLECTIVE_HOSTS} hosts ${cold[0]!.toFixed(1)} ms, ` +
            `round robin of ${ROUND_ROBIN_HOSTS} hosts ${cold[1]!.toFixed(1)} ms (target < 50 ms)`,
          row(
            `GET /slots 62 days, a collective team type of ${COLLECTIVE_HOSTS} hosts (target ratio ≥ 0.5; ` +
              `${Math.round(collective.payloads.bytes / 1024)} KiB)`,
            collective.real,
            collective.bare,
          ),
          row(
            `GET /slots 62 days, a round-robin team type of ${ROUND_ROBIN_HOSTS} hosts (target ratio ≥ 0.3; ` +
              `${Math.round(roundRobin.payloads.bytes / 1024)} KiB)`,
            roundRobin.real,
            roundRobin.bare,
          ),
        ].join('\n');
      });

    if (runs('acting'))
      await part(async () => {
        // Issue 27: one account key acting for 100 holders (each with one event type and the
        // default availability), the next holder in every request, named in Slotwise-Holder; then
        // the same queries with each holder's own key, for the same holders' floor.
        const account = await seedAccount(base, env, ACTING_HOLDERS);
        const queries = froms.map((from, i) => ({ from, holder: account.holders[i % account.holders.length]! }));
        const acting = queries.map(({ from, holder }) => ({
          path: slotPath(holder.eventTypeId, from),
          headers: { [HOLDER_HEADER]: holder.id },
        }));
        const ownKeys = queries.map(({ from, holder }) => ({
          path: slotPath(holder.eventTypeId, from),
          headers: { authorization: `Bearer ${holder.key}` },
        }));
        const json = 'application/json; charset=utf-8';
        const actingLoad = await againstFloor('acting', account.key, acting, json);
        const ownLoad = await againstFloor('acting-own-keys', account.key, ownKeys, json);
        return [
          row(
            `GET /slots 62 days, one account key acting for ${ACTING_HOLDERS} holders in turn (Slotwise-Holder; ` +
              `${Math.round(actingLoad.payloads.bytes / 1024)} KiB)`,
            actingLoad.real,
            actingLoad.bare,
          ),
          row(
            `the same queries, each with its holder's own key (${ACTING_HOLDERS} keys in turn)`,
            ownLoad.real,
            ownLoad.bare,
          ),
        ].join('\n');
      });

    if (runs('bookings'))
      await part(async () => {
        const bookings = await bookingLoad(base, server.pid!, worst, now);
        const floor = await durableWriteFloor(ON_POSTGRES ? database.url : join(dir, 'floor.db'), SECONDS, 16);
        const overHttp = await httpWriteFloor(ON_POSTGRES ? database.url : join(dir, 'http-floor.db'));
        return (
          `POST /bookings, 16 clients: ${bookings.rps.toFixed(0)} bookings/s, p50 ${bookings.p50} ms, p99 ${bookings.p99} ms ` +
          `(floor: ${floor.rate.toFixed(0)} durable ${ON_POSTGRES ? 'pg' : 'SQLite'} check+insert transactions/s) ` +
          `→ ratio ${(bookings.rps / floor.rate).toFixed(2)}; server CPU per booking ${bookings.cpuPerRequestUs.toFixed(0)} µs; ` +
          `database statements per booking ${statementsText(bookings.statementsPerRequest!)}\n` +
          cpuSplit('booking', bookings, floor) +
          `\n  ${httpFloorText(overHttp)}`
        );
      });
    if (runs('holds'))
      await part(async () => {
        const checkouts = await checkoutLoad(base, server.pid!, checkout, now);
        const floor = await durableWriteFloor(ON_POSTGRES ? database.url : join(dir, 'floor-holds.db'), SECONDS, 16);
        return (
          `POST /holds then POST /bookings {holdId}, 16 clients: ${(checkouts.rps / 2).toFixed(0)} checkouts/s, ` +
          `${checkouts.rps.toFixed(0)} requests/s, p99 ${checkouts.p99} ms (floor: ${floor.rate.toFixed(0)} durable ` +
          `${ON_POSTGRES ? 'pg' : 'SQLite'} check+insert transactions/s) → ratio ${(checkouts.rps / floor.rate).toFixed(2)}; ` +
          `server CPU per request ${checkouts.cpuPerRequestUs.toFixed(0)} µs; database statements per request ` +
          `(a hold or a booking) ${statementsText(checkouts.statementsPerRequest!)}\n` +
          cpuSplit('request', checkouts, floor)
        );
      });
    if (runs('seats'))
      await part(async () => {
        // Issue 29: 16 clients filling 100-seat occurrences, one start after another: every seat
        // joins (or opens) the occurrence with a seat number no other seat of it holds.
        const seated = await seedSeats(base, env);
        const seats = await seatLoad(base, server.pid!, seated, now);
        const floor = await durableWriteFloor(ON_POSTGRES ? database.url : join(dir, 'floor-seats.db'), SECONDS, 16);
        const overHttp = await httpWriteFloor(ON_POSTGRES ? database.url : join(dir, 'http-floor-seats.db'));
        return (
          `POST /bookings of seats, ${SEATS} per occurrence, 16 clients: ${seats.rps.toFixed(0)} seats/s, ` +
          `p50 ${seats.p50} ms, p99 ${seats.p99} ms (target < 50 ms) (floor: ${floor.rate.toFixed(0)} durable ` +
          `${ON_POSTGRES ? 'pg' : 'SQLite'} check+insert transactions/s) → ratio ${(seats.rps / floor.rate).toFixed(2)}; ` +
          `server CPU per seat ${seats.cpuPerRequestUs.toFixed(0)} µs; database statements per seat ` +
          `${statementsText(seats.statementsPerRequest!)}\n` +
          cpuSplit('seat', seats, floor) +
          `\n  ${httpFloorText(overHttp)}`
        );
      });
    if (runs('revocation')) await part(() => revocationLatency(env));
    if (peaks.length > 0) report.push(`server peak RSS, highest part: ${Math.max(...peaks)} MB`);

    console.log(
      `\nSlotwise benchmark — ${ON_POSTGRES ? 'PostgreSQL' : 'SQLite'}, ${SECONDS} s per run, node ${process.version}`,
    );
    console.log(`throughput at saturation (64 connections, ${ROUNDS} alternating rounds); latency at 10 connections\n`);
    for (const line of report) console.log(line);
    if (smtp) {
      // The worker sends after the loads' commits: give it a moment to drain before counting.
      await sleep(2_000);
      console.log(`\nSMTP_URL set (--smtp): the sink on 127.0.0.1 accepted ${await smtp.accepted()} messages`);
    }
  } finally {
    await smtp?.close();
    server.kill('SIGTERM');
    for (const floor of floors) floor.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    await database.drop();
    calendarHost.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * An SMTP server on 127.0.0.1 that accepts every message, reads and drops its data, and counts it:
 * a process of its own (smtp-sink.ts), off the event loop that generates the load.
 */
async function startSmtpSink(): Promise<{ url: string; accepted: () => Promise<number>; close: () => Promise<void> }> {
  const sink = fork(join(process.cwd(), 'dist-bench/bench/smtp-sink.js'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await nextAnswer<SinkAnswer>(sink, 'the SMTP sink');
  if (ready.type !== 'ready') throw new Error(`the SMTP sink: ${JSON.stringify(ready)}`);
  return {
    url: `smtp://127.0.0.1:${ready.port}`,
    accepted: async () => {
      const answer = nextAnswer<SinkAnswer>(sink, 'the SMTP sink');
      sink.send({ type: 'count' } satisfies SinkRequest);
      const counted = await answer;
      if (counted.type !== 'accepted') throw new Error(`the SMTP sink: ${JSON.stringify(counted)}`);
      return counted.count;
    },
    close: async () => {
      const exited = new Promise((resolve) => sink.once('exit', resolve));
      sink.disconnect();
      await exited;
    },
  };
}

/**
 * Where a write's CPU went on this machine, next to the floor's: with every process on the same
 * cores, the machine's CPU per request bounds the rate (cores / CPU per request), whatever the
 * server does.
 */
function cpuSplit(what: string, load: Figures, floor: WriteFloor): string {
  const cores = availableParallelism();
  const database = (us: number | null | undefined) => (us == null ? '' : ` (PostgreSQL ${us.toFixed(0)} µs)`);
  return (
    `  machine CPU per ${what} ${load.machineCpuPerRequestUs!.toFixed(0)} µs${database(load.databaseCpuPerRequestUs)}, ` +
    `per floor transaction ${floor.machineCpuPerTxUs.toFixed(0)} µs${database(floor.databaseCpuPerTxUs)}: ` +
    `on ${cores} cores at most ${((cores * 1e6) / load.machineCpuPerRequestUs!).toFixed(0)}/s ` +
    `and ${((cores * 1e6) / floor.machineCpuPerTxUs).toFixed(0)}/s`
  );
}

/** The lowest and highest ratio of a single round: how much the machine drifted meanwhile. */
function roundRatios(real: Figures, floor: Figures): string {
  const ratios = real.roundRps.map((rps, i) => rps / floor.roundRps[i]!);
  return `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
}

function row(label: string, real: Figures, floor: Figures): string {
  return [
    label,
    `  req/s ${real.rps.toFixed(0)} vs floor ${floor.rps.toFixed(0)} → ratio ${(real.rps / floor.rps).toFixed(2)} ` +
      `(rounds ${roundRatios(real, floor)})`,
    `  p50 ${real.p50} ms vs ${floor.p50} ms; p99 ${real.p99} ms vs ${floor.p99} ms (10 connections)`,
    `  server CPU per request ${real.cpuPerRequestUs.toFixed(0)} µs vs floor ${floor.cpuPerRequestUs.toFixed(0)} µs → ratio ${(floor.cpuPerRequestUs / real.cpuPerRequestUs).toFixed(2)}`,
    `  database statements per request ${statementsText(real.statementsPerRequest!)}`,
  ].join('\n');
}

interface Holder {
  key: string;
  eventTypeId: string;
}

/** One request of a read load: its path, and headers beyond the load's key (`Slotwise-Holder`, or another key). */
interface Read {
  path: string;
  headers?: Record<string, string>;
}

/** Names the holder an account key acts for (contract §12). */
const HOLDER_HEADER = 'slotwise-holder';

/** A 62-day slot query of the event type from each of `froms`. */
function slotReads(eventTypeId: string, froms: string[]): Read[] {
  return froms.map((from) => ({ path: slotPath(eventTypeId, from) }));
}

function slotPath(eventTypeId: string, from: string): string {
  return `/api/v1/slots?eventTypeId=${eventTypeId}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(
    new Date(Date.parse(from) + RANGE_DAYS * DAY).toISOString(),
  )}`;
}

/** The headers of `read` sent with `key`. */
function headersOf(key: string, read: Read): Record<string, string> {
  return { authorization: `Bearer ${key}`, ...read.headers };
}

async function api(
  base: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  actingFor?: string,
): Promise<{ status: number; json: any }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(actingFor === undefined ? {} : { [HOLDER_HEADER]: actingFor }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json().catch(() => null) };
}

/** Weekdays in Berlin with a lunch break, three event types, a few hundred bookings over 62 days. */
async function seedRealistic(base: string, key: string, now: number): Promise<Holder> {
  const day = [
    { start: '09:00', end: '12:00' },
    { start: '13:00', end: '17:00' },
  ];
  await api(base, key, 'PUT', '/api/v1/availability', {
    timeZone: 'Europe/Berlin',
    weekly: { monday: day, tuesday: day, wednesday: day, thursday: day, friday: day },
    overrides: [{ date: new Date(now + 20 * DAY).toISOString().slice(0, 10), intervals: [] }],
  });
  const types = [
    { title: 'Intro call', durationMinutes: 30 },
    { title: 'Deep dive', durationMinutes: 60, bufferBeforeMinutes: 10, bufferAfterMinutes: 10 },
    { title: 'Quick check', durationMinutes: 15, slotIntervalMinutes: 15 },
  ];
  const ids: string[] = [];
  for (const type of types) ids.push((await api(base, key, 'POST', '/api/v1/event-types', type)).json.id);
  let booked = 0;
  for (let round = 0; booked < 300 && round < 3; round++) {
    for (const eventTypeId of ids) {
      const from = new Date(now + DAY).toISOString();
      const to = new Date(now + RANGE_DAYS * DAY).toISOString();
      const slots = (await api(base, key, 'GET', `/api/v1/slots?eventTypeId=${eventTypeId}&from=${from}&to=${to}`)).json
        .data as Array<{ start: string }>;
      for (let i = round; i < slots.length && booked < 300; i += 7) {
        const response = await api(base, key, 'POST', '/api/v1/bookings', {
          eventTypeId,
          start: slots[i]!.start,
          guestName: 'Guest',
          guestEmail: `guest${i}@example.com`,
        });
        if (response.status === 201) booked++;
      }
    }
  }
  return { key, eventTypeId: ids[0]! };
}

/**
 * Three ICS calendars of 2,000 events each, as a long-used calendar exports them: three and a half
 * years of history and half a year ahead, any day from 07:00 to 19:00 in Berlin, a tenth of them
 * weekly series with exceptions (ended ones, and three standing meetings with no end). Together
 * they keep about a third of the realistic holder's hours busy. Answers 304 to a matching If-None-Match; counts those.
 */
async function serveCalendars(now: number): Promise<{ url: string; notModified(): number; close(): void }> {
  let seed = 42;
  const random = () => {
    // xorshift32: the same calendars every run.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  const local = (instant: number) => {
    const date = new Date(instant);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}00`;
  };
  const calendar = (name: string) => {
    const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:-//Slotwise bench//${name}//EN`];
    const first = now - 3.5 * 365 * DAY;
    for (let i = 0; i < 2_000; i++) {
      const series = i % 10 === 0;
      // Series begin in the past and ran their course (up to 20 weeks), but for three weekly
      // meetings that run on with no end.
      const standing = i < 30 && series;
      const day = standing
        ? Math.floor((now - random() * 365 * DAY) / DAY) * DAY
        : Math.floor((first + random() * (series ? 3 : 4) * 365 * DAY) / DAY) * DAY;
      const start = day + (7 + Math.floor(random() * 11)) * 3_600_000 + (random() < 0.5 ? 0 : 1_800_000);
      const end = start + (1 + Math.floor(random() * 3)) * 1_800_000;
      lines.push('BEGIN:VEVENT', `UID:${name}-${i}@bench`, 'DTSTAMP:20260101T000000Z');
      lines.push(`DTSTART;TZID=Europe/Berlin:${local(start)}`, `DTEND;TZID=Europe/Berlin:${local(end)}`);
      if (series) {
        lines.push(standing ? 'RRULE:FREQ=WEEKLY' : `RRULE:FREQ=WEEKLY;COUNT=${5 + Math.floor(random() * 16)}`);
        lines.push(`EXDATE;TZID=Europe/Berlin:${local(start + 14 * DAY)}`);
      }
      lines.push(`SUMMARY:Meeting ${i}`, 'END:VEVENT');
    }
    lines.push('END:VCALENDAR', '');
    return lines.join('\r\n');
  };
  const bodies = new Map(['work', 'personal', 'team'].map((name) => [`/${name}.ics`, calendar(name)]));
  let notModified = 0;
  const server = createHttpServer((request, response) => {
    const body = bodies.get(request.url ?? '');
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    const etag = `"${request.url}-1"`;
    if (request.headers['if-none-match'] === etag) {
      notModified++;
      response.writeHead(304, { etag }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8', etag }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, notModified: () => notModified, close: () => server.close() };
}

/** Open around the clock, a 5-minute event type: about 18,000 slots in 62 days. */
async function seedWorstCase(base: string, key: string): Promise<Holder> {
  const always = [{ start: '00:00', end: '24:00' }];
  await api(base, key, 'PUT', '/api/v1/availability', {
    timeZone: 'UTC',
    weekly: {
      monday: always,
      tuesday: always,
      wednesday: always,
      thursday: always,
      friday: always,
      saturday: always,
      sunday: always,
    },
  });
  const eventTypeId = (await api(base, key, 'POST', '/api/v1/event-types', { title: 'Five', durationMinutes: 5 })).json
    .id;
  return { key, eventTypeId };
}

/**
 * An account key, and `count` holders of its account, each with one 30-minute event type made by
 * that key acting for it, in the default availability (Monday to Friday 09:00–17:00 UTC). The
 * holders are made as `keys create --account NAME --holder NAME` makes them, four CLI runs at a
 * time; each one's own key (read scope) tells its id.
 */
async function seedAccount(base: string, env: NodeJS.ProcessEnv, count: number, account = 'acting') {
  const key = cli(['keys', 'create', '--account', account], env);
  const holderKeys: string[] = [];
  for (let first = 0; first < count; first += 4) {
    const batch = Array.from({ length: Math.min(4, count - first) }, (_, i) =>
      cliRun(['keys', 'create', '--account', account, '--holder', `holder-${first + i}`, '--scopes', 'read'], env),
    );
    for (const { stdout } of await Promise.all(batch)) holderKeys.push(stdout.trim());
  }
  const holders: Array<{ id: string; key: string; eventTypeId: string }> = [];
  for (const holderKey of holderKeys) {
    const id = (await api(base, holderKey, 'GET', '/api/v1/me')).json.holder.id as string;
    const type = { title: 'Intro call', durationMinutes: 30 };
    const created = await api(base, key, 'POST', '/api/v1/event-types', type, id);
    if (created.status !== 201)
      throw new Error(`event type for ${id}: ${created.status} ${JSON.stringify(created.json)}`);
    holders.push({ id, key: holderKey, eventTypeId: created.json.id });
  }
  return { key, holders };
}

/**
 * An account of `ROUND_ROBIN_HOSTS` holders (seeded as `seedAccount` seeds them) in three zones,
 * weekdays with a lunch break, each with a few bookings of its own event type over the next weeks;
 * a collective team type of the first `COLLECTIVE_HOSTS` and a round-robin one of all of them.
 */
async function seedTeams(base: string, env: NodeJS.ProcessEnv, now: number) {
  const { key, holders } = await seedAccount(base, env, ROUND_ROBIN_HOSTS, 'teams');
  const zones = ['Europe/Berlin', 'America/New_York', 'UTC'];
  const day = [
    { start: '08:00', end: '12:00' },
    { start: '13:00', end: '18:00' },
  ];
  for (const [index, holder] of holders.entries()) {
    const weekly = { monday: day, tuesday: day, wednesday: day, thursday: day, friday: day };
    const put = await api(base, key, 'PUT', '/api/v1/availability', { timeZone: zones[index % 3], weekly }, holder.id);
    if (put.status !== 200) throw new Error(`availability of ${holder.id}: ${put.status}`);
    // Every fourth hour of the next four weeks, from a different hour per holder: the hosts' free times differ.
    for (let booking = 0; booking < 20; booking++) {
      const start = Math.ceil(now / HOUR) * HOUR + (index % 7) * HOUR + booking * 29 * HOUR;
      await api(
        base,
        key,
        'POST',
        '/api/v1/bookings',
        {
          eventTypeId: holder.eventTypeId,
          start: new Date(start).toISOString(),
          guestName: 'G',
          guestEmail: 'g@example.com',
        },
        holder.id,
      );
    }
  }
  const teamType = async (title: string, assignment: string, hosts: typeof holders) => {
    const created = await api(base, key, 'POST', '/api/v1/event-types', {
      title,
      durationMinutes: 30,
      assignment,
      hosts: hosts.map((holder) => ({ holderId: holder.id })),
    });
    if (created.status !== 201) throw new Error(`${title}: ${created.status} ${JSON.stringify(created.json)}`);
    return created.json.id as string;
  };
  return {
    key,
    collective: await teamType('Panel', 'collective', holders.slice(0, COLLECTIVE_HOSTS)),
    roundRobin: await teamType('Any rep', 'round-robin', holders),
  };
}

/** Every hour of every day open, in UTC: each load's starts are bookable wherever they fall. */
async function openAlways(base: string, key: string, holderId: string): Promise<void> {
  const always = [{ start: '00:00', end: '24:00' }];
  const weekly = Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [day, always]),
  );
  const put = await api(base, key, 'PUT', '/api/v1/availability', { timeZone: 'UTC', weekly }, holderId);
  if (put.status !== 200) throw new Error(`availability of ${holderId}: ${put.status}`);
}

/**
 * Three holders of an account open around the clock, and a 5-minute round-robin and collective
 * type of the three, booked with the account key: what the team booking load books.
 */
async function seedTeamBookers(base: string, env: NodeJS.ProcessEnv) {
  const { key, holders } = await seedAccount(base, env, 3, 'team-bookings');
  for (const holder of holders) await openAlways(base, key, holder.id);
  const teamType = async (title: string, assignment: string): Promise<Holder> => {
    const created = await api(base, key, 'POST', '/api/v1/event-types', {
      title,
      durationMinutes: 5,
      assignment,
      hosts: holders.map((holder) => ({ holderId: holder.id })),
    });
    if (created.status !== 201) throw new Error(`${title}: ${created.status} ${JSON.stringify(created.json)}`);
    return { key, eventTypeId: created.json.id as string };
  };
  return {
    roundRobin: await teamType('Any of three', 'round-robin'),
    collective: await teamType('All three', 'collective'),
  };
}

/** Seats one occurrence of the seats part takes. */
const SEATS = 100;

/**
 * A holder, always open, with a 5-minute event type of `SEATS` seats, booked with a key of the
 * holder's own (as the bookings part books): the seats' cost, not account scope's.
 */
async function seedSeats(base: string, env: NodeJS.ProcessEnv): Promise<Holder> {
  const { key, holders } = await seedAccount(base, env, 1, 'seats');
  const holder = holders[0]!;
  await openAlways(base, key, holder.id);
  const type = { title: 'Workshop', durationMinutes: 5, seats: SEATS };
  const created = await api(base, key, 'POST', '/api/v1/event-types', type, holder.id);
  if (created.status !== 201) throw new Error(`seated type: ${created.status} ${JSON.stringify(created.json)}`);
  const own = await api(base, key, 'POST', `/api/v1/holders/${holder.id}/keys`, { scopes: ['*'] });
  if (own.status !== 201) throw new Error(`holder key: ${own.status} ${JSON.stringify(own.json)}`);
  return { key: own.json.key as string, eventTypeId: created.json.id as string };
}

/** Exactly `SEATS` requests per start, one start after another: each occurrence is filled by the 16 clients at once. */
async function seatLoad(base: string, pid: number, holder: Holder, now: number): Promise<Figures> {
  const start = startsFrom(now);
  let occurrence = start();
  let seated = 0;
  return writeLoad(base, pid, holder, 'seat load', [
    {
      method: 'POST',
      path: '/api/v1/bookings',
      setupRequest: (request: any) => {
        if (seated++ === SEATS) {
          occurrence = start();
          seated = 1;
        }
        return {
          ...request,
          body: JSON.stringify({
            eventTypeId: holder.eventTypeId,
            start: occurrence,
            guestName: 'Seat',
            guestEmail: 'seat@example.com',
          }),
        };
      },
    },
  ]);
}

/** The real answers, for the floor to serve byte for byte. */
async function capturePayloads(base: string, key: string, reads: Read[]) {
  const bodies: string[] = [];
  let bytes = 0;
  for (const read of reads) {
    const response = await fetch(`${base}${read.path}`, { headers: headersOf(key, read) });
    if (response.status !== 200) throw new Error(`${read.path} answered ${response.status}: ${await response.text()}`);
    const text = await response.text();
    bodies.push(text);
    bytes += text.length;
  }
  return { bodies, bytes: bytes / reads.length };
}

interface Target {
  base: string;
  pid: number;
}

/** Saturation is measured in rounds, the server and the floor taking turns: the VM's speed drifts over seconds. */
const ROUNDS = 5;

/**
 * A read load (`reads` in turn) on the server and on the floor. Saturation alternates short rounds
 * between the two (the order flipping each round), so that a slower or faster stretch of the shared
 * machine falls on both alike; the figures are totals over the rounds.
 */
async function readLoads(real: Target, floor: Target, key: string, reads: Read[], alongside?: SideLoad) {
  const statementCounter = await StatementCounter.measuredIdle(real.base);
  let next = 0;
  const requests = [
    {
      method: 'GET' as const,
      setupRequest: (request: any) => {
        const read = reads[next++ % reads.length]!;
        return read.headers === undefined
          ? { ...request, path: read.path }
          : { ...request, path: read.path, headers: { ...request.headers, ...read.headers } };
      },
    },
  ];
  /** Statements the side load's own requests cost in the saturation rounds: not the reads'. */
  let alongsideStatements = 0;
  const run = async (target: Target, connections: number, seconds: number, measured = false) => {
    const cpuBefore = cpuTimeUs(target.pid);
    if (target === real) alongside?.start(measured);
    const result = await autocannon({
      url: target.base,
      connections,
      duration: seconds,
      headers: { authorization: `Bearer ${key}` },
      requests,
    });
    if (target === real && alongside !== undefined) {
      const statements = await alongside.stop();
      if (measured) alongsideStatements += statements;
    }
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`read load: ${result.non2xx} non-2xx, ${result.errors} errors`);
    // Requests the load generator gave up on at the end of a run are still being answered:
    // let them finish so the next run measures only itself.
    await fetch(`${target.base}${reads[0]!.path}`, { headers: headersOf(key, reads[0]!) }).then((r) => r.text());
    return { result, cpuUs: cpuTimeUs(target.pid) - cpuBefore };
  };
  const latency = async (target: Target): Promise<Pick<Figures, 'p50' | 'p99'>> => {
    const { result } = await run(target, 10, SECONDS);
    return { p50: result.latency.p50, p99: result.latency.p99 };
  };
  // Warm-up: JIT, caches, connection set-up.
  await run(real, 10, SECONDS);
  await run(floor, 10, SECONDS);
  const totals = new Map<Target, { requests: number; seconds: number; cpuUs: number; roundRps: number[] }>([
    [real, { requests: 0, seconds: 0, cpuUs: 0, roundRps: [] }],
    [floor, { requests: 0, seconds: 0, cpuUs: 0, roundRps: [] }],
  ]);
  // Counted over all the rounds, the floor's too (the server's timers tick on meanwhile): over
  // one-second rounds, whether a timer's tick fell inside would be most of the figure.
  const statementsBefore = await statementCounter.mark();
  const roundSeconds = Math.max(1, Math.round(SECONDS / ROUNDS));
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of round % 2 === 0 ? [real, floor] : [floor, real]) {
      const { result, cpuUs } = await run(target, 64, roundSeconds, true);
      const total = totals.get(target)!;
      total.requests += result.requests.total;
      total.seconds += result.duration;
      total.cpuUs += cpuUs;
      total.roundRps.push(result.requests.total / result.duration);
    }
  }
  const statements = lessStatements(await statementCounter.since(statementsBefore), alongsideStatements);
  const figures = async (target: Target): Promise<Figures> => {
    const total = totals.get(target)!;
    return {
      rps: total.requests / total.seconds,
      cpuPerRequestUs: total.cpuUs / total.requests,
      roundRps: total.roundRps,
      ...(await latency(target)),
    };
  };
  return {
    real: {
      ...(await figures(real)),
      statementsPerRequest: perRequest(statements, totals.get(real)!.requests),
    },
    bare: await figures(floor),
  };
}

/** Work the server is given while its own read loads run, and not while the floor's do. */
interface SideLoad {
  /** `measured`: a saturation round, whose figures count (not the warm-up or the latency run). */
  start(measured: boolean): void;
  /** Resolves, once its requests in flight have answered, to the database statements they cost. */
  stop(): Promise<number>;
}

/** Bookings and cancellations made one at a time to learn what each costs in statements. */
const CALIBRATION_COUNT = 100;

/**
 * The mixed part's bookings, 20 a second, paced by `paced-bookings.ts` in a process of its own
 * (why: there). The server's statement counter counts theirs with the reads', so what one booking
 * and one cancellation cost is measured first, each alone, and taken out of the reads' figure.
 */
class PacedBookings implements SideLoad {
  /** The saturation rounds' bookings, together. */
  private readonly measured: PacedRun = { seconds: 0, bookings: 0, cancellations: 0, refusals: {}, latenciesMs: [] };
  private measuring = false;
  private statementsPerBooking = 0;
  private statementsPerCancellation = 0;

  private constructor(
    private readonly pacer: ChildProcess,
    private readonly freeStarts: number,
  ) {}

  /** A pacer booking free starts of `eventTypeId` between `from` and `to` with `key`. */
  static async spawn(base: string, key: string, eventTypeId: string, from: number, to: number) {
    const pacer = fork(
      join(process.cwd(), 'dist-bench/bench/paced-bookings.js'),
      [base, key, eventTypeId, new Date(from).toISOString(), new Date(to).toISOString()],
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    const ready = await nextAnswer(pacer);
    if (ready.type !== 'ready') throw new Error(`paced bookings: ${JSON.stringify(ready)}`);
    return new PacedBookings(pacer, ready.freeStarts);
  }

  async calibrate(base: string): Promise<void> {
    const counter = await StatementCounter.measuredIdle(base);
    const booked = await counter.mark();
    await this.ask({ type: 'book', count: CALIBRATION_COUNT });
    this.statementsPerBooking = (await counter.since(booked)).beyondIdle / CALIBRATION_COUNT;
    // Cancelling them gives their starts back.
    const cancelled = await counter.mark();
    await this.ask({ type: 'cancel', count: CALIBRATION_COUNT });
    this.statementsPerCancellation = (await counter.since(cancelled)).beyondIdle / CALIBRATION_COUNT;
  }

  start(measured: boolean): void {
    this.measuring = measured;
    this.pacer.send({ type: 'start', measured } satisfies PacingRequest);
  }

  async stop(): Promise<number> {
    const answer = await this.ask({ type: 'stop' });
    if (answer.type !== 'stopped') throw new Error(`paced bookings: ${JSON.stringify(answer)}`);
    const { run } = answer;
    const refused = Object.values(run.refusals).reduce((sum, count) => sum + count, 0);
    if (this.measuring) {
      this.measured.seconds += run.seconds;
      this.measured.bookings += run.bookings;
      this.measured.cancellations += run.cancellations;
      this.measured.latenciesMs.push(...run.latenciesMs);
      for (const [status, count] of Object.entries(run.refusals))
        this.measured.refusals[status] = (this.measured.refusals[status] ?? 0) + count;
    }
    // A refused booking is judged in a transaction like one made: counted as one.
    return (run.bookings + refused) * this.statementsPerBooking + run.cancellations * this.statementsPerCancellation;
  }

  /** The bookings' line of the report. */
  summary(): string {
    const { seconds, bookings, cancellations, refusals, latenciesMs } = this.measured;
    const sorted = latenciesMs.sort((a, b) => a - b);
    const percentile = (q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!.toFixed(1);
    const refused = Object.entries(refusals).map(([status, count]) => `${count} answered ${status}`);
    return (
      `  bookings alongside, in the saturation rounds: ${(bookings / seconds).toFixed(1)}/s made (${bookings} in ` +
      `${seconds.toFixed(1)} s; ${refused.length === 0 ? 'none refused' : refused.join(', ')}; ${cancellations} ` +
      `cancelled to free a start again, of ${this.freeStarts} free at first), p50 ${percentile(0.5)} ms, ` +
      `p99 ${percentile(0.99)} ms; database statements per booking ${this.statementsPerBooking.toFixed(1)}, per ` +
      `cancellation ${this.statementsPerCancellation.toFixed(1)} (each measured alone, and left out of the reads' figure)`
    );
  }

  close(): void {
    this.pacer.kill('SIGTERM');
  }

  private ask(request: PacingRequest): Promise<PacingAnswer> {
    const answer = nextAnswer(this.pacer);
    this.pacer.send(request);
    return answer;
  }
}

function nextAnswer<Answer = PacingAnswer>(child: ChildProcess, what = 'paced bookings'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`${what} exited (${code})`));
    child.once('exit', exited);
    child.once('message', (answer) => {
      child.off('exit', exited);
      resolve(answer as Answer);
    });
  });
}

/** Distinct free starts on the worst-case holder's 5-minute grid, 16 clients at once. */
async function bookingLoad(base: string, pid: number, holder: Holder, now: number): Promise<Figures> {
  const start = startsFrom(now);
  return writeLoad(base, pid, holder, 'booking load', [
    {
      method: 'POST',
      path: '/api/v1/bookings',
      setupRequest: (request: any) => ({
        ...request,
        body: ((at: number) =>
          JSON.stringify({
            eventTypeId: holder.eventTypeId,
            start: at,
            guestName: 'Load',
            // A guest of its own per booking, as on a real booking page (and under --smtp, below
            // EMAIL_PER_RECIPIENT_PER_HOUR: every booking's e-mail is sent).
            guestEmail: `load-${at}@example.com`,
          }))(start()),
      }),
    },
  ]);
}

/**
 * The checkout flow of contract §9: each client holds a start, then books the hold, over and over
 * (two durable transactions per checkout, each judged like a booking).
 */
async function checkoutLoad(base: string, pid: number, holder: Holder, now: number): Promise<Figures> {
  const start = startsFrom(now);
  return writeLoad(base, pid, holder, 'checkout load', [
    {
      method: 'POST',
      path: '/api/v1/holds',
      setupRequest: (request: any) => ({
        ...request,
        body: JSON.stringify({ eventTypeId: holder.eventTypeId, start: start() }),
      }),
      onResponse: (_status: number, body: string, context: any) => {
        context.holdId = JSON.parse(body).id;
      },
    },
    {
      method: 'POST',
      path: '/api/v1/bookings',
      setupRequest: (request: any, context: any) => ({
        ...request,
        body: JSON.stringify({ holdId: context.holdId, guestName: 'Load', guestEmail: 'load@example.com' }),
      }),
    },
  ]);
}

/** Five-minute starts from two days ahead, each handed out once. */
function startsFrom(now: number): () => number {
  const first = Math.ceil((now + 2 * DAY) / 300_000) * 300_000;
  let next = 0;
  return () => first + 300_000 * next++;
}

/**
 * How long a write load runs before it is measured. The write path's code is first run hot here
 * (the seeding ran it a few times): V8 compiles it while the load runs, on the same two cores,
 * which measured 20 % of a core's time in the first seconds of a PostgreSQL booking load, and
 * its slower first requests fell into the p99. The read parts are warmed up the same way.
 */
const WRITE_WARM_UP_SECONDS = 3;

/** 16 clients sending `requests` in turn, first for WRITE_WARM_UP_SECONDS, then measured for SECONDS; every answer must be 2xx. */
async function writeLoad(
  base: string,
  pid: number,
  holder: Holder,
  name: string,
  requests: autocannon.Request[],
): Promise<Figures> {
  const load = (duration: number) =>
    autocannon({
      url: base,
      connections: 16,
      duration,
      headers: { authorization: `Bearer ${holder.key}`, 'content-type': 'application/json' },
      requests,
    });
  const warmUp = await load(WRITE_WARM_UP_SECONDS);
  if (warmUp.non2xx > 0 || warmUp.errors > 0)
    throw new Error(`${name} (warm-up): ${warmUp.non2xx} non-2xx, ${warmUp.errors} errors`);
  const statementCounter = await StatementCounter.measuredIdle(base);
  const statementsBefore = await statementCounter.mark();
  const cpuBefore = cpuTimeUs(pid);
  const machineBefore = machineBusyUs();
  const databaseBefore = ON_POSTGRES ? databaseCpuUs() : null;
  const result = await load(SECONDS);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuPerRequestUs: (cpuTimeUs(pid) - cpuBefore) / result.requests.total,
    machineCpuPerRequestUs: (machineBusyUs() - machineBefore) / result.requests.total,
    databaseCpuPerRequestUs:
      databaseBefore === null ? null : (databaseCpuUs()! - databaseBefore) / result.requests.total,
    roundRps: [],
    statementsPerRequest: perRequest(await statementCounter.since(statementsBefore), result.requests.total),
  };
}

interface HttpWriteFloor {
  rps: number;
  p50: number;
  p99: number;
  serverCpuPerRequestUs: number;
}

/**
 * The write floor over HTTP (`http-write-floor.ts`): the same 16 clients and body shape as a write
 * load, against a bare route that runs the floor's transaction on the same store, with the
 * server's pool size. What a booking's latency is judged against: on this machine most of a
 * request's cost is its round trips, and the floor makes as few as a durable write can.
 */
async function httpWriteFloor(target: string): Promise<HttpWriteFloor> {
  const port = await freePort();
  const poolSize = process.env.DATABASE_POOL_SIZE ?? '10';
  const floor = spawn(
    process.execPath,
    [join(process.cwd(), 'dist-bench/bench/http-write-floor.js'), target, String(port), poolSize],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      floor.stdout!.once('data', () => resolve());
      floor.once('exit', (code) => reject(new Error(`the HTTP write floor exited with ${code}`)));
    });
    const load = (duration: number) =>
      autocannon({
        url: `http://127.0.0.1:${port}/bookings`,
        method: 'POST',
        connections: 16,
        duration,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          eventTypeId: 'evt_floor',
          start: new Date().toISOString(),
          guestName: 'Floor',
          guestEmail: 'floor@example.com',
        }),
      });
    // Warmed up as the server's write loads are.
    await load(WRITE_WARM_UP_SECONDS);
    const cpuBefore = cpuTimeUs(floor.pid!);
    const result = await load(SECONDS);
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`HTTP write floor: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      serverCpuPerRequestUs: (cpuTimeUs(floor.pid!) - cpuBefore) / result.requests.total,
    };
  } finally {
    floor.kill('SIGTERM');
    if (floor.exitCode === null) await new Promise((resolve) => floor.once('exit', resolve));
  }
}

function httpFloorText(floor: HttpWriteFloor): string {
  return (
    `HTTP write floor (a bare route, the floor's transaction, 16 clients): ${floor.rps.toFixed(0)}/s, ` +
    `p50 ${floor.p50} ms, p99 ${floor.p99} ms, its server's CPU per request ${floor.serverCpuPerRequestUs.toFixed(0)} µs`
  );
}

/** Database statements: all the server sent (but for reading the counter), and those beyond what its own timers send at idle. */
interface Statements {
  all: number;
  beyondIdle: number;
  /** Statements a second the server sent with no request coming, measured just before. */
  idlePerSecond: number;
}

/** How long the server is left alone to measure its idle statements: its timers tick once a second. */
const IDLE_MEASURE_MS = 3_000;

/**
 * The server's `slotwise_database_queries_total` (statements its process sent to the database).
 * Reading it costs a statement (the webhook queue's depth), and with no request coming the
 * process's timers send some too (calendar-sync and webhook polls, housekeeping: six to thirty a
 * second with the bench's one-second sync). Those are what the figures per request would show
 * when a request sends none: the counter measures both first and tells them apart.
 */
class StatementCounter {
  private constructor(
    private readonly base: string,
    private readonly idlePerSecond: number,
    private readonly perReading: number,
  ) {}

  /** A counter for the server at `base`, after IDLE_MEASURE_MS of measuring its idle rate. */
  static async measuredIdle(base: string): Promise<StatementCounter> {
    // Readings back to back differ by what a reading costs, unless a timer fired in between: the least of three.
    const readings: number[] = [];
    for (let i = 0; i < 4; i++) readings.push(await databaseStatements(base));
    const perReading = Math.min(...readings.slice(1).map((reading, i) => reading - readings[i]!));
    await sleep(IDLE_MEASURE_MS);
    const idle = (await databaseStatements(base)) - readings.at(-1)! - perReading;
    return new StatementCounter(base, idle / (IDLE_MEASURE_MS / 1000), perReading);
  }

  async mark(): Promise<{ statements: number; at: number }> {
    return { statements: await databaseStatements(this.base), at: performance.now() };
  }

  async since(mark: { statements: number; at: number }): Promise<Statements> {
    const all = (await databaseStatements(this.base)) - mark.statements - this.perReading;
    const idle = (this.idlePerSecond * (performance.now() - mark.at)) / 1000;
    return { all, beyondIdle: all - idle, idlePerSecond: this.idlePerSecond };
  }
}

function lessStatements(statements: Statements, less: number): Statements {
  return { ...statements, all: statements.all - less, beyondIdle: statements.beyondIdle - less };
}

function perRequest(statements: Statements, requests: number): Statements {
  return { ...statements, all: statements.all / requests, beyondIdle: statements.beyondIdle / requests };
}

function statementsText(perRequest: Statements): string {
  return (
    `${perRequest.beyondIdle.toFixed(3)} (${perRequest.all.toFixed(3)} with the ` +
    `${perRequest.idlePerSecond.toFixed(1)}/s the process sends at idle)`
  );
}

async function databaseStatements(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = /^slotwise_database_queries_total (\d+)$/m.exec(text)?.[1];
  if (value === undefined) throw new Error(`${base}/metrics has no slotwise_database_queries_total`);
  return Number(value);
}

/** Until the server at `base` hears other processes' commits (and so may reuse its caches). */
async function untilHearing(base: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!/^slotwise_change_signal_hearing 1$/m.test(await (await fetch(`${base}/metrics`)).text())) {
    if (Date.now() > deadline) throw new Error(`${base}: the change signal never heard anything`);
    await sleep(20);
  }
}

function cli(args: string[], env: NodeJS.ProcessEnv): string {
  return cliOutput(args, env).stdout.trim();
}

function cliOutput(args: string[], env: NodeJS.ProcessEnv): { stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`slotwise ${args.join(' ')} failed: ${result.stderr}`);
  return result;
}

/** Keys revoked, one after another, each a new key. */
const REVOCATIONS = 5;
/** How long a revoked key is asked about before the bench calls it never refused. */
const REVOCATION_PATIENCE_MS = 10_000;

/**
 * Issue 16: "a revoked key is refused by every instance within 1 second". A second server on the
 * same database serves a new key (cached, its change poll answering) in a loop while the CLI
 * revokes it; the figure is from the CLI's exit to that instance's first 401.
 */
async function revocationLatency(env: NodeJS.ProcessEnv): Promise<string> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const second = spawn(process.execPath, [CLI, 'serve'], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitFor(`${base}/healthz`);
    const latencies: number[] = [];
    for (let i = 0; i < REVOCATIONS; i++) {
      const { stdout, stderr } = cliOutput(['keys', 'create', '--holder', 'revoker'], env);
      const id = /^Created key (\S+) /m.exec(stderr)![1]!;
      const token = stdout.trim();
      const refused = firstRefusal(base, token);
      // On PostgreSQL the change poll starts with the first request: the key is revoked only
      // once the instance hears commits, so the figure is the poll's, not a cold read's.
      await untilHearing(base);
      await sleep(100);
      const { exitedAt } = await cliRun(['keys', 'revoke', id], env);
      latencies.push((await refused) - exitedAt);
    }
    const sorted = latencies.sort((a, b) => a - b);
    const ms = (value: number) => (value === Infinity ? `never (${REVOCATION_PATIENCE_MS} ms)` : value.toFixed(1));
    return (
      `keys revoke on a second instance's key in use: its first 401 ${ms(sorted[0]!)} / ` +
      `${ms(sorted[Math.floor(REVOCATIONS / 2)]!)} / ${ms(sorted.at(-1)!)} ms (min / median / max of ${REVOCATIONS}) ` +
      `after the CLI exited (below 0: refused while the CLI, its revocation committed, was still closing)`
    );
  } finally {
    second.kill('SIGTERM');
    await new Promise((resolve) => second.once('exit', resolve));
  }
}

/**
 * Asks `base` with `token` in a loop, one request at a time as a client would, until it answers
 * 401: resolves to `performance.now()` then (Infinity after REVOCATION_PATIENCE_MS).
 */
async function firstRefusal(base: string, token: string): Promise<number> {
  const giveUpAt = performance.now() + REVOCATION_PATIENCE_MS;
  while (performance.now() < giveUpAt) {
    const response = await fetch(`${base}/api/v1/event-types`, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    if (response.status === 401) return performance.now();
    if (response.status !== 200) throw new Error(`a key in use answered ${response.status}`);
  }
  return Infinity;
}

/**
 * Runs the CLI without blocking the event loop (requests go on meanwhile); resolves once it has
 * exited, to what it printed and `performance.now()` at its exit.
 */
function cliRun(args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; exitedAt: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    let exitedAt = 0;
    child.once('exit', () => (exitedAt = performance.now()));
    // Closed once its output is read too, which may come after the exit.
    child.once('close', (code) => {
      if (code === 0) resolve({ stdout, exitedAt });
      else reject(new Error(`slotwise ${args.join(' ')} failed: ${stderr}`));
    });
  });
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`${url} did not answer`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Sets the process's peak RSS (VmHWM) back to its current RSS (Linux, `clear_refs` value 5). */
function resetPeakRss(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const { default: pg } = await import('pg');
  const name = `slotwise_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

await main();
