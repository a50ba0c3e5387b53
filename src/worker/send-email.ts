import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';

/**
 * What one attempt at an e-mail came to (contract §16): `sent` once the SMTP server accepted it;
 * `retry` after a 4xx reply or without a reply (refused, lost or timed-out connection), to be
 * tried again on the webhook schedule; `rejected` after a 5xx reply, which ends that message as
 * failed. `error` is the server's reply or the connection's failure, for the notification log.
 */
export type EmailAttempt = { kind: 'sent' } | { kind: 'retry' | 'rejected'; error: string };

export interface EmailSenderOptions {
  /** `SMTP_URL`: `smtp://user:pass@host:port` or `smtps://…`. */
  smtpUrl: string;
  /** One bound for connecting, the greeting and each reply: a stalled server costs a message no more. */
  timeoutMs: number;
  /** Connections kept open to the server and reused, at most; one per message in flight. */
  maxConnections: number;
}

/**
 * Sends e-mails through the one SMTP server of `SMTP_URL` over a small pool of connections, each
 * reused for up to 100 messages: a connection, its greeting and EHLO per message would cost more
 * round trips than the message itself.
 */
export class EmailSender {
  private readonly transport: Transporter;

  constructor(options: EmailSenderOptions) {
    // The URL's settings (host, port, TLS, credentials) and ours: nodemailer reads nothing but the
    // URL when given one as `url`, which would drop the timeouts and the pool.
    this.transport = nodemailer.createTransport({
      ...parseConnectionUrl(options.smtpUrl),
      pool: true,
      maxConnections: options.maxConnections,
      maxMessages: 100,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
    });
  }

  async send(message: SendMailOptions): Promise<EmailAttempt> {
    try {
      await this.transport.sendMail(message);
      return { kind: 'sent' };
    } catch (error) {
      const reply = error as { responseCode?: unknown; response?: unknown; message?: unknown };
      const code = typeof reply.responseCode === 'number' ? reply.responseCode : null;
      const text = String(reply.response ?? reply.message ?? error);
      return { kind: code !== null && code >= 500 && code < 600 ? 'rejected' : 'retry', error: text };
    }
  }

  close(): void {
    this.transport.close();
  }
}
