import { randomBytes } from 'node:crypto';
import type { ApiKey, Scope } from '../domain/api-key.js';
import type { Instant } from '../domain/instant.js';
import type { AppContext, Caller } from './context.js';
import { digestOf } from './key-cache.js';
import type { AuthenticatedKey } from './ports/store.js';

export const API_KEY_PREFIX = 'sw_';

export interface CreateKeyInput {
  holderName: string;
  scopes: Scope[];
  expiresAt: Instant | null;
}

/** Creates the key (and its holder on first use of the name); the plain key exists only in the result. */
export async function createApiKey(
  context: Pick<AppContext, 'store' | 'now' | 'ids'>,
  input: CreateKeyInput,
): Promise<{ key: ApiKey; token: string }> {
  const token = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const now = context.now();
  const key = await context.store.transaction(async (tx) => {
    const holder = await tx.holders.ensure({ id: context.ids.newId('hdr'), name: input.holderName, createdAt: now });
    const key: ApiKey = {
      id: context.ids.newId('key'),
      holderId: holder.id,
      holderName: holder.name,
      holderHandle: holder.handle,
      scopes: input.scopes,
      createdAt: now,
      expiresAt: input.expiresAt,
      revokedAt: null,
    };
    await tx.apiKeys.insert(key, digestOf(token));
    return key;
  });
  return { key, token };
}

export function listApiKeys(context: Pick<AppContext, 'store'>): Promise<ApiKey[]> {
  return context.store.apiKeys.list();
}

export async function revokeApiKey(context: Pick<AppContext, 'store' | 'now'>, keyId: string): Promise<boolean> {
  return context.store.transaction((tx) => tx.apiKeys.revoke(keyId, context.now()));
}

export type Authentication =
  | {
      ok: true;
      caller: Caller;
      /** The holder's calendar version, read with the key: a freshness hint for the slot query, not part of who calls. */
      calendarVersion: number;
    }
  | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'revoked' | 'expired' };

/**
 * Reads `Authorization: Bearer <key>`; the key itself is only ever compared by digest. Answers at
 * once, without a promise, when the key is known unchanged (see `KeyCache`): every warm request.
 */
export function authenticate(
  context: AppContext,
  authorization: string | undefined,
): Authentication | Promise<Authentication> {
  if (authorization === undefined || authorization === '') return { ok: false, reason: 'missing' };
  const match = /^Bearer +([A-Za-z0-9_\-.~+/]+=*) *$/i.exec(authorization);
  if (!match) return { ok: false, reason: 'malformed' };
  const key = context.keys.find(match[1]!);
  return key instanceof Promise ? key.then((found) => judged(context, found)) : judged(context, key);
}

function judged(context: AppContext, key: AuthenticatedKey | undefined): Authentication {
  if (!key) return { ok: false, reason: 'unknown' };
  if (key.revokedAt !== null) return { ok: false, reason: 'revoked' };
  if (key.expiresAt !== null && key.expiresAt <= context.now()) return { ok: false, reason: 'expired' };
  return { ok: true, caller: callerWith(key), calendarVersion: key.holderCalendarVersion };
}

export function callerWith(key: ApiKey): Caller {
  return {
    holderId: key.holderId,
    holderName: key.holderName,
    holderHandle: key.holderHandle,
    keyId: key.id,
    scopes: key.scopes,
    keyCreatedAt: key.createdAt,
    keyExpiresAt: key.expiresAt,
  };
}
