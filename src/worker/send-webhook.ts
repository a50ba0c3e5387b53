import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Deadline, errorText, failureKind, SafeFetch } from './safe-fetch.js';

export const RESPONSE_EXCERPT_BYTES = 4096;

export interface SendResult {
  statusCode: number | null;
  retryAfter: string | null;
  error: string | null;
  responseExcerpt: string | null;
  durationMs: number;
}

export interface SenderOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
}

/**
 * Signs and POSTs one delivery through the guarded pipeline (safe-fetch.ts): redirects are never
 * followed, the address is checked where the connection is made, one timeout covers the attempt.
 */
export class WebhookSender {
  private readonly http: SafeFetch;

  constructor(private readonly options: SenderOptions) {
    this.http = new SafeFetch({
      allowPrivateTargets: options.allowPrivateTargets,
      userAgent: 'Slotwise-Webhooks/1',
      decompress: false,
      // Each attempt opens and closes its own connection: receivers are many and rarely hot.
      agent: { pipelining: 0 },
    });
  }

  async send(
    delivery: { url: string; secret: string; eventId: string; payload: string },
    sentAt: Date,
    signal?: AbortSignal,
  ): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const deadline = new Deadline(this.options.timeoutMs, signal);
    try {
      const url = new URL(delivery.url);
      const signature = new StandardWebhook(delivery.secret).sign(delivery.eventId, sentAt, delivery.payload);
      const headers = {
        'content-type': 'application/json',
        'webhook-id': delivery.eventId,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signature,
      };
      const answer = await this.http.request(url, { method: 'POST', headers, body: delivery.payload }, deadline);
      const excerpt = await this.http.read(answer, RESPONSE_EXCERPT_BYTES);
      const retryAfter = answer.fields['retry-after'];
      return {
        statusCode: answer.status,
        retryAfter: Array.isArray(retryAfter) ? (retryAfter[0] ?? null) : (retryAfter ?? null),
        error: null,
        responseExcerpt: excerptOf(excerpt.bytes),
        durationMs: elapsed(),
      };
    } catch (error) {
      return {
        statusCode: null,
        retryAfter: null,
        error: describe(error, deadline),
        responseExcerpt: null,
        durationMs: elapsed(),
      };
    }
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

/**
 * The start of a reply as text that every store keeps, whatever bytes the receiver sent: at most
 * 4 KiB, decoded as UTF-8 (a character cut at the end, or bytes that are not UTF-8, become U+FFFD
 * rather than failing), and U+0000, which PostgreSQL cannot store in text, as U+FFFD too (else the
 * attempt could not be recorded). Null for an empty reply.
 */
export function excerptOf(reply: Buffer): string | null {
  if (reply.length === 0) return null;
  return reply.subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8').replaceAll('\u0000', '\uFFFD');
}

/** An attempt's error for the holder's delivery log. */
function describe(error: unknown, deadline: Deadline): string {
  const kind = failureKind(error, deadline);
  if (kind === 'deadline') return 'timed out';
  if (kind === 'stopped') return 'aborted (shutting down)';
  return errorText(error);
}
