import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

/**
 * The floor for GET /slots: a bare Fastify route that answers, in turn, bodies the real server
 * answered for the same kind of query, with no auth, no validation, no database and no slot
 * engine. What the real server achieves as a fraction of this is what its own work costs.
 */
const [payloadFile, portText] = process.argv.slice(2);
const payloads = JSON.parse(readFileSync(payloadFile!, 'utf8')) as string[];

let next = 0;
const app = Fastify({ logger: false });
app.get('/api/v1/slots', async (_request, reply) =>
  reply.type('application/json; charset=utf-8').send(payloads[next++ % payloads.length]),
);
await app.listen({ host: '127.0.0.1', port: Number(portText) });
process.stdout.write('ready\n');
// Exits (rather than dies) on SIGTERM, so that a profiled floor writes its profile.
process.on('SIGTERM', () => process.exit(0));
