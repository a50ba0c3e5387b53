import { createHash } from 'node:crypto';
import type { FastifyInstance, onSendAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import type { Instant } from '../domain/instant.js';
import { requesterOf, type Principal } from '../app/context.js';
import type { IdempotencyLedger, StoredResponse } from '../app/ports/idempotency-ledger.js';
import type { Keyring, SecretPurpose } from '../app/ports/keyring.js';
import { HttpProblem, problem } from './problems.js';

const KEY_LIFETIME_MS = 24 * 3_600_000;
/** An in-flight claim older than this belongs to a request that died with its process (requests time out at 30 s). */
const ABANDONED_AFTER_MS = 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Headers replayed with a stored response, besides the body. */
const REPLAYED_HEADERS = ['content-type', 'location'];
const REPLAY_PURPOSE: SecretPurpose = 'idempotency-replay';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey: string | null;
  }
  interface FastifyContextConfig {
    /** The route's answer shows a secret: see `SecretBearing`. */
    secretBearing?: SecretBearing;
  }
}

/**
 * What a route whose answer shows a secret (a webhook's signing secret) declares in its `config`.
 * Its stored answer is encrypted (purpose `idempotency-replay`, bound to the API key and the
 * Idempotency-Key), and a replay shows the secret only while it is still in use; otherwise 409
 * `invalid-state` with `gone` as the detail. A stored answer that no key of SLOTWISE_SECRET can
 * open any more (its key was rotated out) is a 409 `invalid-state` too, never a 500.
 */
export interface SecretBearing {
  /** Whether the secret the stored (decrypted) answer shows is still in use, e.g. its webhook still exists. */
  stillLive(principal: Principal, response: StoredResponse): Promise<boolean>;
  /** The problem's detail when it is not. */
  gone: string;
}

/**
 * `Idempotency-Key` on every POST: the first request with a key runs and its answer (below 500) is
 * stored for 24 h; the same key with the same request replays it with `Idempotent-Replayed: true`
 * and no second side effect; with a different request → 422; while the first still runs → 409.
 * Keys are scoped per API key. Requests that fail authentication or schema validation never get
 * here; a 400 for the content (validation in the use case) and a 5xx answer are released, not
 * stored, so the client can fix or retry the request under the same key.
 */
export function registerIdempotency(
  api: FastifyInstance,
  ledger: IdempotencyLedger,
  keyring: Keyring,
  now: () => Instant,
): void {
  api.decorateRequest('idempotencyKey', null);

  /** What a secret-bearing answer is bound to: it opens only for the row it was stored in. */
  const binding = (requester: string, key: string) => `${requester}\n${key}`;

  /** The stored answer of a secret-bearing route decrypted, if it may still be shown; else the problem why not. */
  const openReplay = async (
    secret: SecretBearing,
    principal: Principal,
    key: string,
    stored: StoredResponse,
    log: FastifyInstance['log'],
  ): Promise<StoredResponse> => {
    const body = keyring.decrypt(REPLAY_PURPOSE, stored.body, binding(requesterOf(principal), key));
    if (body === undefined) {
      log.warn(
        { key: principal.keyId },
        'a stored Idempotency-Key answer cannot be decrypted: made under a key no longer in SLOTWISE_SECRET (or before answers were encrypted, or altered)',
      );
      throw new HttpProblem(
        problem(
          'invalid-state',
          'The answer stored for this Idempotency-Key can no longer be read (the server key that encrypted it has been retired), so it is not replayed; the request it answered already ran. Look the resource up, or use a new Idempotency-Key for a new request.',
        ),
      );
    }
    const response = { ...stored, body };
    if (!(await secret.stillLive(principal, response))) throw new HttpProblem(problem('invalid-state', secret.gone));
    return response;
  };

  const claim: preHandlerAsyncHookHandler = async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    const principal = request.principal;
    if (!principal) return;
    if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
      throw new HttpProblem(
        problem('invalid-request', 'The Idempotency-Key header must be 1–255 visible ASCII characters.', [
          { field: 'Idempotency-Key', message: 'must be 1–255 visible ASCII characters, e.g. a UUID' },
        ]),
      );
    }
    const at = now();
    const outcome = await ledger.claim({
      requester: requesterOf(principal),
      key: header,
      requestHash: fingerprint(request.method, request.url, request.body),
      now: at,
      expiresAt: at + KEY_LIFETIME_MS,
      staleBefore: at - ABANDONED_AFTER_MS,
    });
    switch (outcome.kind) {
      case 'started':
        request.idempotencyKey = header;
        return;
      case 'replay': {
        const secret = request.routeOptions.config.secretBearing;
        const response = secret
          ? await openReplay(secret, principal, header, outcome.response, request.log)
          : outcome.response;
        return reply
          .code(response.status)
          .headers({ ...response.headers, 'idempotent-replayed': 'true' })
          .send(response.body);
      }
      case 'mismatch':
        throw new HttpProblem(
          problem(
            'idempotency-key-reused',
            'This Idempotency-Key was used for a different request (method, path or body) in the last 24 hours.',
          ),
        );
      case 'in-flight':
        throw new HttpProblem(
          problem(
            'idempotency-conflict',
            'A request with this Idempotency-Key is still being processed; retry shortly.',
          ),
        );
    }
  };

  const complete: onSendAsyncHookHandler<unknown> = async (request, reply, payload) => {
    const key = request.idempotencyKey;
    const principal = request.principal;
    if (key === null || !principal) return payload;
    const requester = requesterOf(principal);
    request.idempotencyKey = null;
    // A 400 is a request that failed validation, whether of its schema (which never gets here) or
    // of its content (an unknown eventTypeId, from >= to): not stored, so the fixed request can reuse the key.
    if (reply.statusCode >= 500 || reply.statusCode === 400 || typeof payload !== 'string') {
      await ledger.release(requester, key);
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    // Stored before the answer leaves: a client that saw it can always have it replayed. A secret
    // never rests in the ledger in the clear.
    const secret = request.routeOptions.config.secretBearing;
    const body = secret ? keyring.encrypt(REPLAY_PURPOSE, payload, binding(requester, key)) : payload;
    await ledger.complete(requester, key, { status: reply.statusCode, headers, body });
    return payload;
  };

  // Only POST routes get the hooks: a GET (a slot query) pays for no idempotency at all.
  api.addHook('onRoute', (route) => {
    if (![route.method].flat().includes('POST')) return;
    route.preHandler = [route.preHandler ?? []].flat().concat(claim);
    route.onSend = [route.onSend ?? []].flat().concat(complete);
  });
}

/** Same method, path with query, and body (as parsed JSON, whatever the order of its fields) make the same request. */
function fingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${canonicalJson(child)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
