import Fastify from 'fastify';
import { createPostgresFloorTable, postgresFloorWrite, sqliteFloorWrite } from './write-floor.js';

/**
 * The floor of a write over HTTP (POST /bookings, a seat): a bare Fastify route that parses a JSON
 * body and runs the durable transaction a booking must (a bounded overlap check, then an insert;
 * `write-floor.ts`), with no auth, no validation, no rules and no webhooks. Its latency under the
 * same 16 clients is what a booking's is read against.
 *
 *   node http-write-floor.js <sqlite file | postgres url> <port> <pool size>
 */
const [target, portText, poolSizeText] = process.argv.slice(2);
const app = Fastify({ logger: false });
let next = 0;

if (target!.startsWith('postgres')) {
  const { default: pg } = await import('pg');
  await createPostgresFloorTable(target!);
  // The server's own pool size (DATABASE_POOL_SIZE), so that as many transactions run at once.
  const pool = new pg.Pool({ connectionString: target, max: Number(poolSizeText) });
  app.post('/bookings', async (request, reply) => {
    const start = 300_000 * next++;
    const client = await pool.connect();
    try {
      await postgresFloorWrite(client, start);
    } finally {
      client.release();
    }
    return reply.code(201).send({ start, body: request.body });
  });
} else {
  const floor = sqliteFloorWrite(target!);
  app.post('/bookings', async (request, reply) => {
    const start = 300_000 * next++;
    floor.write(start);
    return reply.code(201).send({ start, body: request.body });
  });
}

await app.listen({ host: '127.0.0.1', port: Number(portText) });
process.stdout.write('ready\n');
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
