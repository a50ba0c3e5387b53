import type { FastifyInstance } from 'fastify';
import { requesterOf } from '../app/context.js';
import type { Instant } from '../domain/instant.js';
import type { RequestCounter } from '../app/ports/request-counter.js';
import { HttpProblem, problem } from './problems.js';

const WINDOW_MS = 60_000;
const POLICY_NAME = 'per-key';

/**
 * Counts in this process's memory: the cheapest counter, right for one process. Processes sharing
 * a SQLite file each count on their own.
 */
export class MemoryRequestCounter implements RequestCounter {
  private readonly windows = new Map<string, { start: Instant; requests: number }>();

  async count(requester: string, windowStart: Instant): Promise<number> {
    const window = this.windows.get(requester);
    if (window && window.start === windowStart) return ++window.requests;
    this.windows.set(requester, { start: windowStart, requests: 1 });
    return 1;
  }
}

export interface RateLimitSettings {
  /** Requests per key per minute; 0 turns the limit off. */
  perMinute: number;
  counter: RequestCounter;
}

/**
 * Per-key limit with the IETF draft's headers on every keyed response
 * (`RateLimit-Policy: "per-key";q=600;w=60`, `RateLimit: "per-key";r=599;t=42`) and a 429
 * problem with `Retry-After` past it. Runs after authentication, so only keyed requests count.
 */
export function registerRateLimit(api: FastifyInstance, settings: RateLimitSettings, now: () => Instant): void {
  if (settings.perMinute <= 0) return;
  const policy = `"${POLICY_NAME}";q=${settings.perMinute};w=${WINDOW_MS / 1000}`;
  api.addHook('onRequest', async (request, reply) => {
    const principal = request.principal;
    if (!principal) return;
    const at = now();
    const windowStart = Math.floor(at / WINDOW_MS) * WINDOW_MS;
    const requests = await settings.counter.count(requesterOf(principal), windowStart);
    const remaining = Math.max(0, settings.perMinute - requests);
    const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - at) / 1000));
    reply.header('ratelimit-policy', policy);
    reply.header('ratelimit', `"${POLICY_NAME}";r=${remaining};t=${resetSeconds}`);
    if (requests > settings.perMinute) {
      throw new HttpProblem(
        problem(
          'rate-limited',
          `This API key made more than ${settings.perMinute} requests this minute; retry in ${resetSeconds} s.`,
        ),
        { 'retry-after': String(resetSeconds) },
      );
    }
  });
}
