import Database from 'better-sqlite3';
import Fastify from 'fastify';

/**
 * The floor of a write over HTTP (POST /bookings, a seat): a bare Fastify route that parses a JSON
 * body and runs the durable transaction a booking must (a bounded overlap check, then an insert;
 * `write-floor.ts`), with no auth, no validation, no rules and no webhooks. Its latency under the
 * same 16 clients is what a booking's p99 is measured against: on this machine each round trip to
 * PostgreSQL costs both processes a socket write and a wake-up, which no code of ours can avoid.
 *
 *   node http-write-floor.js <sqlite file | postgres url> <port> <pool size>
 */
const [target, portText, poolSizeText] = process.argv.slice(2);
const app = Fastify({ logger: false });
const HOLDER = 'h';
let next = 0;

if (target!.startsWith('postgres')) {
  const { default: pg } = await import('pg');
  const setup = new pg.Client({ connectionString: target });
  await setup.connect();
  await setup.query('drop table if exists http_floor_bookings');
  await setup.query(
    'create table http_floor_bookings (holder text not null, start_at bigint not null, end_at bigint not null)',
  );
  await setup.query('create index http_floor_by_holder on http_floor_bookings (holder, start_at)');
  await setup.end();
  // The server's own pool size (DATABASE_POOL_SIZE), so that as many transactions run at once.
  const pool = new pg.Pool({ connectionString: target, max: Number(poolSizeText) });
  app.post('/bookings', async (request, reply) => {
    const start = 300_000 * next++;
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(
        'select count(*) from http_floor_bookings where holder = $1 and start_at > $2 and start_at < $3 and end_at > $4',
        [HOLDER, start - 3 * 86_400_000, start + 300_000, start],
      );
      await client.query('insert into http_floor_bookings (holder, start_at, end_at) values ($1, $2, $3)', [
        HOLDER,
        start,
        start + 300_000,
      ]);
      await client.query('commit');
    } finally {
      client.release();
    }
    return reply.code(201).send({ start, body: request.body });
  });
} else {
  const db = new Database(target!);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('create table b (holder text not null, start_at integer not null, end_at integer not null)');
  db.exec('create index b_by_holder on b (holder, start_at)');
  const check = db.prepare(
    'select count(*) as n from b where holder = ? and start_at > ? and start_at < ? and end_at > ?',
  );
  const insert = db.prepare('insert into b (holder, start_at, end_at) values (?, ?, ?)');
  const book = db.transaction((start: number) => {
    check.get(HOLDER, start - 3 * 86_400_000, start + 300_000, start);
    insert.run(HOLDER, start, start + 300_000);
  });
  app.post('/bookings', async (request, reply) => {
    const start = 300_000 * next++;
    book.immediate(start);
    return reply.code(201).send({ start, body: request.body });
  });
}

await app.listen({ host: '127.0.0.1', port: Number(portText) });
process.stdout.write('ready\n');
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
