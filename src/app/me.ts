import type { Caller } from './context.js';

/** Who is calling: the holder and the key in use (never the key itself). */
export function describeCaller(caller: Caller) {
  return {
    holder: { id: caller.holderId, name: caller.holderName },
    key: { id: caller.keyId, scopes: caller.scopes, createdAt: caller.keyCreatedAt, expiresAt: caller.keyExpiresAt },
  };
}
