import type { FastifyInstance } from 'fastify';
import type { Instant } from '../domain/instant.js';
import type { RequestCounter } from '../app/ports/request-counter.js';
import { HttpProblem, problem } from './problems.js';

const WINDOW_MS = 60_000;
const POLICY_NAME = 'per-key';

/** Counts each key's requests in the current window for the limit, without waiting on anything. */
export interface RequestTally {
  /** The number of requests of the key in the window starting at `windowStart`, this one included. */
  count(apiKeyId: string, windowStart: Instant): number;
}

/** Keys counted at once, at most; past this, those whose window has ended are forgotten. */
const MAX_COUNTED_KEYS = 100_000;

/**
 * Counts in this process's memory: the cheapest tally, right for one process. Processes sharing
 * a SQLite file each count on their own.
 */
export class MemoryRequestCounter implements RequestTally {
  private readonly windows = new Map<string, { start: Instant; requests: number }>();

  count(apiKeyId: string, windowStart: Instant): number {
    const window = this.windows.get(apiKeyId);
    if (window && window.start === windowStart) return ++window.requests;
    if (!window) forgetEnded(this.windows, windowStart);
    this.windows.set(apiKeyId, { start: windowStart, requests: 1 });
    return 1;
  }
}

interface SharedWindow {
  start: Instant;
  /** The count of every instance, as the database last answered (this process's sent requests included). */
  shared: number;
  /** Requests on their way to the database, and the addition carrying them. */
  sending: number;
  inFlight: Promise<void> | null;
  /** Requests not sent yet. */
  unsent: number;
  sendTimer: NodeJS.Timeout | null;
}

/**
 * Counts in memory and shares the counts with every instance through the database, in the
 * background: no request waits on the database for its count (a warm request touches no database
 * at all, issue 16). A key's unsent requests are added to its row at most every `sendEveryMs`,
 * one addition in flight at a time, and the answer (every instance's total) becomes the base the
 * next requests are counted on. So one instance counts exactly; instances together may let
 * through, past the limit, what the others admitted within the last `sendEveryMs` before their
 * counts arrived (at 600 a minute and 100 ms, a few requests). When the database cannot be
 * reached, each instance limits by its own count and sends it later.
 */
export class SharedRequestCounter implements RequestTally {
  private readonly windows = new Map<string, SharedWindow>();

  constructor(
    private readonly store: RequestCounter,
    private readonly sendEveryMs = 100,
  ) {}

  count(apiKeyId: string, windowStart: Instant): number {
    let window = this.windows.get(apiKeyId);
    if (!window || window.start !== windowStart) {
      if (!window) forgetEnded(this.windows, windowStart);
      if (window?.sendTimer) clearTimeout(window.sendTimer);
      window = { start: windowStart, shared: 0, sending: 0, inFlight: null, unsent: 0, sendTimer: null };
      this.windows.set(apiKeyId, window);
    }
    window.unsent += 1;
    this.sendLater(apiKeyId, window);
    return window.shared + window.sending + window.unsent;
  }

  /** Sends what is unsent now and waits for every addition in flight (tests, shutdown). */
  async flush(): Promise<void> {
    await Promise.all(
      [...this.windows].map(async ([apiKeyId, window]) => {
        if (window.sendTimer) clearTimeout(window.sendTimer);
        window.sendTimer = null;
        await window.inFlight;
        await this.send(apiKeyId, window);
      }),
    );
  }

  private sendLater(apiKeyId: string, window: SharedWindow): void {
    if (window.sendTimer !== null || window.inFlight) return;
    window.sendTimer = setTimeout(() => {
      window.sendTimer = null;
      void this.send(apiKeyId, window);
    }, this.sendEveryMs);
    window.sendTimer.unref();
  }

  private send(apiKeyId: string, window: SharedWindow): Promise<void> {
    if (window.unsent === 0 || window.inFlight) return window.inFlight ?? Promise.resolve();
    window.inFlight = this.carry(apiKeyId, window).then((sent) => {
      window.inFlight = null;
      // Requests counted while this was on its way wait for their own send.
      if (sent && window.unsent > 0 && this.windows.get(apiKeyId) === window) this.sendLater(apiKeyId, window);
    });
    return window.inFlight;
  }

  /** Adds the unsent requests to the database's count; false when they stay unsent. */
  private async carry(apiKeyId: string, window: SharedWindow): Promise<boolean> {
    const requests = window.unsent;
    window.unsent = 0;
    window.sending = requests;
    try {
      const total = await this.store.add(apiKeyId, window.start, requests);
      window.shared = Math.max(window.shared + requests, total);
      window.sending = 0;
    } catch {
      // Counted here all the same, and sent with the next request's count (not retried on a
      // timer: a database that is down would be asked every interval for nothing).
      window.sending = 0;
      window.unsent += requests;
      return false;
    }
    return true;
  }
}

/** Bounds a tally: past MAX_COUNTED_KEYS, keys whose window ended before `windowStart` are forgotten. */
function forgetEnded(windows: Map<string, { start: Instant }>, windowStart: Instant): void {
  if (windows.size < MAX_COUNTED_KEYS) return;
  for (const [apiKeyId, window] of windows) if (window.start < windowStart) windows.delete(apiKeyId);
  // Every key counted in this very window: start over rather than grow.
  if (windows.size >= MAX_COUNTED_KEYS) windows.clear();
}

export interface RateLimitSettings {
  /** Requests per key per minute; 0 turns the limit off. */
  perMinute: number;
  counter: RequestTally;
}

/**
 * Per-key limit with the IETF draft's headers on every keyed response
 * (`RateLimit-Policy: "per-key";q=600;w=60`, `RateLimit: "per-key";r=599;t=42`) and a 429
 * problem with `Retry-After` past it. Runs after authentication, so only keyed requests count.
 */
export function registerRateLimit(api: FastifyInstance, settings: RateLimitSettings, now: () => Instant): void {
  if (settings.perMinute <= 0) return;
  const policy = `"${POLICY_NAME}";q=${settings.perMinute};w=${WINDOW_MS / 1000}`;
  // A callback, not an async hook: the count is known at once.
  api.addHook('onRequest', (request, reply, done) => {
    const caller = request.caller;
    if (!caller) return done();
    const at = now();
    const windowStart = Math.floor(at / WINDOW_MS) * WINDOW_MS;
    const requests = settings.counter.count(caller.keyId, windowStart);
    const remaining = Math.max(0, settings.perMinute - requests);
    const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - at) / 1000));
    reply.header('ratelimit-policy', policy);
    reply.header('ratelimit', `"${POLICY_NAME}";r=${remaining};t=${resetSeconds}`);
    if (requests > settings.perMinute) {
      return done(
        new HttpProblem(
          problem(
            'rate-limited',
            `This API key made more than ${settings.perMinute} requests this minute; retry in ${resetSeconds} s.`,
          ),
          { 'retry-after': String(resetSeconds) },
        ),
      );
    }
    done();
  });
}
