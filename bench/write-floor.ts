import Database from 'better-sqlite3';
import { databaseCpuUs, machineBusyUs } from './cpu.js';

/** Transactions per second, and what each cost the machine in CPU (all of it, and PostgreSQL's). */
export interface WriteFloor {
  rate: number;
  machineCpuPerTxUs: number;
  databaseCpuPerTxUs: number | null;
}

/**
 * The floor for POST /bookings: the raw rate of durable write transactions that do what a booking
 * must (a bounded overlap check, then an insert), straight on the driver, with no HTTP, no
 * validation and no rules. SQLite: WAL with `synchronous=FULL`, one writer (SQLite has one).
 * PostgreSQL: `clients` held connections each committing in a loop.
 */
export async function durableWriteFloor(target: string, seconds: number, clients: number): Promise<WriteFloor> {
  return target.startsWith('postgres') ? postgresFloor(target, seconds, clients) : sqliteFloor(target, seconds);
}

/**
 * The floor's durable write on SQLite, in a new file: WAL with `synchronous=FULL`, and a function
 * that runs one transaction (`BEGIN IMMEDIATE`, the bounded overlap check, the insert, `COMMIT`)
 * for a start. Also the HTTP write floor's (`http-write-floor.ts`).
 */
export function sqliteFloorWrite(file: string): { write: (start: number) => void; close: () => void } {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('create table b (holder text not null, start_at integer not null, end_at integer not null)');
  db.exec('create index b_by_holder on b (holder, start_at)');
  const check = db.prepare(
    'select count(*) as n from b where holder = ? and start_at > ? and start_at < ? and end_at > ?',
  );
  const insert = db.prepare('insert into b (holder, start_at, end_at) values (?, ?, ?)');
  const begin = db.prepare('begin immediate');
  const commit = db.prepare('commit');
  return {
    write(start) {
      begin.run();
      check.get('h', start - 3 * 86_400_000, start + 300_000, start);
      insert.run('h', start, start + 300_000);
      commit.run();
    },
    close: () => db.close(),
  };
}

function sqliteFloor(file: string, seconds: number): WriteFloor {
  const floor = sqliteFloorWrite(file);
  const machineBefore = machineBusyUs();
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  for (let start = 0; performance.now() < deadline; start += 300_000) {
    floor.write(start);
    done++;
  }
  const machineCpuPerTxUs = (machineBusyUs() - machineBefore) / done;
  floor.close();
  return { rate: done / seconds, machineCpuPerTxUs, databaseCpuPerTxUs: null };
}

/** Something that runs a statement on PostgreSQL: a `pg` client, or a client of a pool. */
interface Queryable {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

/** The floor's table on PostgreSQL, made empty: each floor of a run starts from none, in the run's one database. */
export async function createPostgresFloorTable(url: string): Promise<void> {
  const { default: pg } = await import('pg');
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  await setup.query('drop table if exists floor_bookings');
  await setup.query(
    'create table floor_bookings (holder text not null, start_at bigint not null, end_at bigint not null)',
  );
  await setup.query('create index floor_by_holder on floor_bookings (holder, start_at)');
  await setup.end();
}

/** The floor's durable write on PostgreSQL: `begin`, the bounded overlap check, the insert, `commit`. */
export async function postgresFloorWrite(client: Queryable, start: number): Promise<void> {
  await client.query('begin');
  await client.query(
    'select count(*) from floor_bookings where holder = $1 and start_at > $2 and start_at < $3 and end_at > $4',
    ['h', start - 3 * 86_400_000, start + 300_000, start],
  );
  await client.query('insert into floor_bookings (holder, start_at, end_at) values ($1, $2, $3)', [
    'h',
    start,
    start + 300_000,
  ]);
  await client.query('commit');
}

async function postgresFloor(url: string, seconds: number, clients: number): Promise<WriteFloor> {
  const { default: pg } = await import('pg');
  await createPostgresFloorTable(url);
  const connected = await Promise.all(
    Array.from({ length: clients }, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    }),
  );
  // Measured while the clients' backends live: an exiting backend takes its CPU time with it.
  const machineBefore = machineBusyUs();
  const databaseBefore = databaseCpuUs();
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  let done = 0;
  await Promise.all(
    connected.map(async (client) => {
      while (performance.now() < deadline) {
        await postgresFloorWrite(client, 300_000 * next++);
        done++;
      }
    }),
  );
  const machineCpuPerTxUs = (machineBusyUs() - machineBefore) / done;
  const databaseAfter = databaseCpuUs();
  await Promise.all(connected.map((client) => client.end()));
  return {
    rate: done / seconds,
    machineCpuPerTxUs,
    databaseCpuPerTxUs:
      databaseBefore === null || databaseAfter === null ? null : (databaseAfter - databaseBefore) / done,
  };
}
