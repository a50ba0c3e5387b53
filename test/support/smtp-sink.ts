// A real SMTP server on 127.0.0.1 (the smtp-server package) that keeps what it accepts, raw and as
// mailparser reads it; `reply` makes it refuse a recipient (at RCPT TO) or a message (after its
// data, so the message was seen), with a 4xx or a 5xx; `stop` and `start` take it down and back up
// on the same port.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Received {
  to: string[];
  raw: string;
  mail: ParsedMail;
}

export interface Refusal {
  code: number;
  /** `rcpt`: the recipient is refused and nothing is sent; `data`: the message is sent, then refused. */
  at: 'rcpt' | 'data';
}

export class SmtpSink {
  /** Messages accepted, in order. */
  readonly received: Received[] = [];
  /** Messages refused after their data (`at: 'data'`), in order. */
  readonly refused: Received[] = [];
  /** The refusal for a recipient, by lower-cased address; none: accepted. */
  readonly reply = new Map<string, Refusal>();
  port = 0;
  private server: SMTPServer | undefined;

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        const refusal = this.reply.get(address.address.toLowerCase());
        if (refusal?.at !== 'rcpt') return callback();
        callback(Object.assign(new Error(`${refusal.code} mailbox says no`), { responseCode: refusal.code }));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
          simpleParser(raw).then((mail) => {
            const refusal = to.map((address) => this.reply.get(address.toLowerCase())).find((r) => r?.at === 'data');
            if (refusal) {
              this.refused.push({ to, raw, mail });
              callback(Object.assign(new Error(`${refusal.code} not now`), { responseCode: refusal.code }));
            } else {
              this.received.push({ to, raw, mail });
              callback();
            }
          }, callback);
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The messages accepted for `address`. */
  to(address: string): Received[] {
    return this.received.filter((message) => message.to.includes(address));
  }
}
