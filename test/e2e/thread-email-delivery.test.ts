// The e-mail thread runs the built file (`dist/worker/email-thread-main.js`), so this test runs the
// built delivery, as the server does, against a real SMTP server on 127.0.0.1.
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ThreadEmailDelivery as Delivery } from '../../src/worker/thread-email-delivery.js';
import { emailBooking, emailInput } from '../support/booking-emails.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { ROOT, ensureBuilt } from './support.js';

let ThreadEmailDelivery: typeof Delivery;
let sink: SmtpSink;
let delivery: Delivery | undefined;

beforeAll(async () => {
  ensureBuilt();
  ({ ThreadEmailDelivery } = (await import(join(ROOT, 'dist/worker/thread-email-delivery.js'))) as {
    ThreadEmailDelivery: typeof Delivery;
  });
});

beforeEach(async () => {
  sink = new SmtpSink();
  await sink.start();
});

afterEach(async () => {
  await delivery?.close();
  delivery = undefined;
  await sink.stop();
});

function deliveryTo(url: string, timeoutMs = 5_000): Delivery {
  delivery = new ThreadEmailDelivery({ sender: { smtpUrl: url, timeoutMs, maxConnections: 2 }, maxDateFormats: 10 });
  return delivery;
}

describe('ThreadEmailDelivery', () => {
  it('when given messages, then the thread composes and sends each: they arrive as composed, in the recipient’s language and zone', async () => {
    const delivery = deliveryTo(sink.url);
    const german = emailInput({
      messageId: '<ntf_2@acme.example>',
      recipient: { role: 'guest', name: 'Grete', email: 'grete@example.com', zone: 'Europe/Berlin', locale: 'de' },
    });
    expect(await Promise.all([delivery.deliver(emailInput()), delivery.deliver(german)])).toEqual([
      { kind: 'sent' },
      { kind: 'sent' },
    ]);
    const byId = new Map(sink.received.map((message) => [message.mail.messageId, message]));
    expect(byId.get('<ntf_1@acme.example>')!.mail.subject).toMatch(/^Confirmed: Intro call/);
    const grete = byId.get('<ntf_2@acme.example>')!;
    expect(grete.mail.subject).toMatch(/^Bestätigt: Intro call/);
    // 09:00 UTC is 10:00 in Berlin, written with the formats the thread keeps.
    expect(grete.mail.text).toContain('10:00');
  });

  it('when a message cannot be composed, then it is unwritable, and the thread goes on with the next', async () => {
    const delivery = deliveryTo(sink.url);
    const broken = emailInput({ booking: emailBooking({ updatedAt: Number.NaN }) });
    expect(await delivery.deliver(broken)).toEqual({ kind: 'unwritable', error: expect.stringContaining('date') });
    expect(await delivery.deliver(emailInput())).toEqual({ kind: 'sent' });
  });

  it('when the server refuses the recipient with a 5xx, then the message is rejected with the server’s reply', async () => {
    const delivery = deliveryTo(sink.url);
    sink.reply.set('grace@example.com', { code: 550, at: 'rcpt' });
    expect(await delivery.deliver(emailInput())).toEqual({ kind: 'rejected', error: expect.stringContaining('550') });
  });

  describe('when the thread ends with a message in flight', () => {
    let silent: NetServer;
    const sockets: Socket[] = [];

    beforeEach(async () => {
      // Accepts and never greets: the message stays in flight.
      silent = createServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    });

    afterEach(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    it('then that message is answered as not sent, to be retried, and the next one starts a new thread', async () => {
      const port = (silent.address() as { port: number }).port;
      const delivery = deliveryTo(`smtp://127.0.0.1:${port}`, 30_000);
      const inFlight = delivery.deliver(emailInput());
      await new Promise((resolve) => setTimeout(resolve, 200));
      // The thread dies as one that ran out of memory would.
      await (delivery as unknown as { thread: { worker: { terminate(): Promise<number> } } }).thread.worker.terminate();
      expect(await inFlight).toEqual({ kind: 'retry', error: expect.stringContaining('the e-mail thread ended') });
      const next = delivery.deliver(emailInput());
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((delivery as unknown as { thread: unknown }).thread).toBeDefined();
      await delivery.close();
      expect(await next).toEqual({ kind: 'retry', error: expect.stringContaining('the e-mail thread ended') });
    });
  });
});
