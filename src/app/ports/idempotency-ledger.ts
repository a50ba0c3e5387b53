// The ledger of Idempotency-Keys: which requests ran under which key, and what they answered.
import type { Instant } from '../../domain/instant.js';

/** A response as it was sent, kept to be replayed for a retried request with the same Idempotency-Key. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface IdempotencyClaim {
  /** Whose key it is: the API key, with the holder an account key acts for (`requesterOf`). */
  requester: string;
  key: string;
  requestHash: string;
  now: Instant;
  expiresAt: Instant;
  /** An in-flight claim made before this is taken to belong to a request that died with its process. */
  staleBefore: Instant;
}

export type IdempotencyOutcome =
  { kind: 'started' } | { kind: 'replay'; response: StoredResponse } | { kind: 'mismatch' } | { kind: 'in-flight' };

export interface IdempotencyLedger {
  /**
   * Starts a request under an Idempotency-Key, or says why not: a stored response to replay, a
   * different request under the same key, or the same key still in flight. Expired keys (and
   * in-flight claims older than `staleBefore`) are taken over.
   */
  claim(claim: IdempotencyClaim): Promise<IdempotencyOutcome>;
  complete(requester: string, key: string, response: StoredResponse): Promise<void>;
  /** Forgets a claim whose request failed on our side (5xx), so the client can retry it. */
  release(requester: string, key: string): Promise<void>;
}
