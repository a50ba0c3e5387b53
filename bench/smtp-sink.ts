/**
 * The `--smtp` part's SMTP server (run.ts): accepts every message on 127.0.0.1, reads and drops
 * its data, and counts it. A process of its own, started by run.ts with an IPC channel: in run.ts
 * its sessions would share the event loop generating the load, and slow the load down as the
 * service sends more (a real relay is not inside the client).
 *
 *   node smtp-sink.js   # answers { type: 'ready', port }, then { type: 'accepted', count } to each 'count'
 */
import { SMTPServer } from 'smtp-server';

/** What run.ts asks: how many messages were accepted so far. */
export type SinkRequest = { type: 'count' };

/** What it hears back: `ready` once, then one `accepted` per request. */
export type SinkAnswer = { type: 'ready'; port: number } | { type: 'accepted'; count: number };

let accepted = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    stream.on('end', () => {
      accepted++;
      callback();
    });
    stream.resume();
  },
});
server.listen(0, '127.0.0.1', () => {
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('the SMTP sink has no port');
  process.send!({ type: 'ready', port: address.port } satisfies SinkAnswer);
});
process.on('message', (request: SinkRequest) => {
  if (request.type === 'count') process.send!({ type: 'accepted', count: accepted } satisfies SinkAnswer);
});
// Ends with run.ts: its IPC channel closing is the signal.
process.on('disconnect', () => server.close(() => process.exit(0)));
