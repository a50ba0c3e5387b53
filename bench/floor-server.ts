import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

/**
 * The floor of a read (GET /slots, a booking page): a bare Fastify route that answers, in turn,
 * bodies the real server answered for the same kind of request, with no auth, no validation, no
 * database, no slot engine and no rendering. What the real server achieves as a fraction of this is
 * what its own work costs.
 */
const [payloadFile, portText, contentType] = process.argv.slice(2);
const payloads = JSON.parse(readFileSync(payloadFile!, 'utf8')) as string[];

let next = 0;
const app = Fastify({ logger: false });
app.get('/*', async (_request, reply) => reply.type(contentType!).send(payloads[next++ % payloads.length]));
await app.listen({ host: '127.0.0.1', port: Number(portText) });
process.stdout.write('ready\n');
// Exits (rather than dies) on SIGTERM, so that a profiled floor writes its profile.
process.on('SIGTERM', () => process.exit(0));
