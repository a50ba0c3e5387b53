// An e-mail attempt against a real SMTP server on 127.0.0.1 (the smtp-server package), read back
// with mailparser: accepted is sent, as composed (its Message-ID kept); a 4xx reply or a server
// that is not there is tried again; a 5xx reply to the recipient ends the message.
import { createServer, type AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bookingEmail } from '../../src/worker/booking-email.js';
import { EmailSender } from '../../src/worker/send-email.js';
import { emailInput } from '../support/booking-emails.js';

let server: SMTPServer;
let port: number;
let received: ParsedMail[];
let sender: EmailSender | undefined;

beforeEach(async () => {
  received = [];
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const reply = /^(\d{3})@/.exec(address.address)?.[1];
      if (reply === undefined) return callback();
      const refusal = Object.assign(new Error(`${reply} mailbox says no`), { responseCode: Number(reply) });
      return callback(refusal);
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => received.push(mail))
        .then(() => callback(), callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});

afterEach(async () => {
  sender?.close();
  sender = undefined;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function messageTo(address: string) {
  return bookingEmail(
    emailInput({ recipient: { role: 'guest', name: 'Grace', email: address, zone: 'UTC', locale: 'en' } }),
  );
}

describe('EmailSender', () => {
  it('when the server accepts the message, then it is sent, and arrives as composed with its Message-ID and iTIP part', async () => {
    sender = new EmailSender({ smtpUrl: `smtp://127.0.0.1:${port}`, timeoutMs: 2_000, maxConnections: 2 });
    expect(await sender.send(messageTo('grace@example.com'))).toEqual({ kind: 'sent' });
    expect(received).toHaveLength(1);
    const [mail] = received as [ParsedMail];
    expect(mail.messageId).toBe('<ntf_1@acme.example>');
    expect(mail.subject).toMatch(/^Confirmed: Intro call/);
    // nodemailer sends the iTIP part as the alternative and again as invite.ics, for clients that
    // show only attachments: the same calendar.
    expect(mail.attachments.map((part) => part.contentType)).toEqual(['text/calendar', 'application/ics']);
    const [alternative, attached] = mail.attachments.map((part) => part.content.toString('utf8'));
    expect(attached).toBe(alternative);
    expect(alternative).toContain('METHOD:REQUEST');
  });

  it('when the server answers the recipient with a 4xx, then the attempt is to be retried; with a 5xx, the message is rejected; nothing arrives', async () => {
    sender = new EmailSender({ smtpUrl: `smtp://127.0.0.1:${port}`, timeoutMs: 2_000, maxConnections: 2 });
    const later = await sender.send(messageTo('450@example.com'));
    expect(later).toMatchObject({ kind: 'retry', error: expect.stringContaining('450') });
    const never = await sender.send(messageTo('550@example.com'));
    expect(never).toMatchObject({ kind: 'rejected', error: expect.stringContaining('550') });
    expect(received).toEqual([]);
  });

  it('when the server takes the connection and never greets, then the attempt is to be retried, within the timeout', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as AddressInfo).port;
    try {
      sender = new EmailSender({ smtpUrl: `smtp://127.0.0.1:${silentPort}`, timeoutMs: 500, maxConnections: 2 });
      const started = performance.now();
      expect(await sender.send(messageTo('grace@example.com'))).toMatchObject({ kind: 'retry' });
      // Room for a loaded machine; without the timeout, nodemailer's own greeting timeout is 30 s.
      expect(performance.now() - started).toBeLessThan(3_000);
    } finally {
      sender?.close();
      sender = undefined;
      silent.close();
    }
  });

  it('when no server listens, then the attempt is to be retried, within the timeout', async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server = new SMTPServer({ logger: false });
    sender = new EmailSender({ smtpUrl: `smtp://127.0.0.1:${port}`, timeoutMs: 1_000, maxConnections: 2 });
    const started = performance.now();
    expect(await sender.send(messageTo('grace@example.com'))).toMatchObject({ kind: 'retry' });
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});
