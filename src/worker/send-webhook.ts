import { Webhook as StandardWebhook } from 'standardwebhooks';
import { request, type Agent } from 'undici';
import { checkLiteralTarget, guardedAgent } from './guarded-http.js';

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
 * Signs and POSTs one delivery. Redirects are never followed. Unless private targets are
 * allowed, the address is checked where the connection is made: a literal IP before connecting,
 * a name inside the connection's own DNS lookup, so the address checked is the address used (no
 * window for DNS rebinding).
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly options: SenderOptions) {
    // Each attempt opens and closes its own connection: receivers are many and rarely hot.
    this.agent = guardedAgent(options.allowPrivateTargets, { pipelining: 0 });
  }

  async send(
    delivery: { url: string; secret: string; eventId: string; payload: string },
    sentAt: Date,
    signal?: AbortSignal,
  ): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const url = new URL(delivery.url);
      checkLiteralTarget(url, this.options.allowPrivateTargets);
      const signature = new StandardWebhook(delivery.secret).sign(delivery.eventId, sentAt, delivery.payload);
      const timeout = AbortSignal.timeout(this.options.timeoutMs);
      const response = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Slotwise-Webhooks/1',
          'webhook-id': delivery.eventId,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body: delivery.payload,
      });
      const excerpt = await readExcerpt(response.body);
      const retryAfter = response.headers['retry-after'];
      return {
        statusCode: response.statusCode,
        retryAfter: Array.isArray(retryAfter) ? (retryAfter[0] ?? null) : (retryAfter ?? null),
        error: null,
        responseExcerpt: excerpt,
        durationMs: elapsed(),
      };
    } catch (error) {
      return {
        statusCode: null,
        retryAfter: null,
        error: describe(error),
        responseExcerpt: null,
        durationMs: elapsed(),
      };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_EXCERPT_BYTES) {
      body.destroy();
      break;
    }
  }
  return excerptOf(Buffer.concat(chunks));
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

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'timed out';
  if (error.name === 'AbortError') return 'aborted (shutting down)';
  const cause = (error as { cause?: unknown }).cause;
  const code = (error as { code?: string }).code;
  const text =
    cause instanceof Error && cause.message !== error.message ? `${error.message}: ${cause.message}` : error.message;
  return code && !text.includes(code) ? `${code}: ${text}` : text;
}
