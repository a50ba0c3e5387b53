import { createHash, randomBytes } from 'node:crypto';
import type { Instant } from '../domain/instant.js';
import type { ApiKey, AuthenticatedKey, Scope, Store } from '../storage/store.js';
import type { AppContext, Caller } from './context.js';
import { newId } from './ids.js';

export const API_KEY_PREFIX = 'sw_';

export function digestOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface CreateKeyInput {
  holderName: string;
  scopes: Scope[];
  expiresAt: Instant | null;
}

/** Creates the key (and its holder on first use of the name); the plain key exists only in the result. */
export async function createApiKey(
  context: AppContext,
  input: CreateKeyInput,
): Promise<{ key: ApiKey; token: string }> {
  const token = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const now = context.now();
  const key = await context.store.transaction(async (tx) => {
    const holder = await tx.ensureHolder({ id: newId('hld'), name: input.holderName, createdAt: now });
    const key: ApiKey = {
      id: newId('key'),
      holderId: holder.id,
      holderName: holder.name,
      scopes: input.scopes,
      createdAt: now,
      expiresAt: input.expiresAt,
      revokedAt: null,
    };
    await tx.insertApiKey(key, digestOf(token));
    return key;
  });
  return { key, token };
}

export function listApiKeys(store: Store): Promise<ApiKey[]> {
  return store.listApiKeys();
}

export async function revokeApiKey(context: AppContext, keyId: string): Promise<boolean> {
  return context.store.transaction((tx) => tx.revokeApiKey(keyId, context.now()));
}

export type Authentication =
  { ok: true; caller: Caller } | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'revoked' | 'expired' };

/**
 * Reads `Authorization: Bearer <key>`; the key itself is only ever compared by digest. Answers
 * at once, without a promise, when the key is known unchanged (see `findKey`): the common case
 * of every request.
 */
export function authenticate(
  context: AppContext,
  authorization: string | undefined,
): Authentication | Promise<Authentication> {
  if (authorization === undefined || authorization === '') return { ok: false, reason: 'missing' };
  const match = /^Bearer +([A-Za-z0-9_\-.~+/]+=*) *$/i.exec(authorization);
  if (!match) return { ok: false, reason: 'malformed' };
  const key = findKey(context.store, match[1]!);
  return key instanceof Promise ? key.then((found) => judged(context, found)) : judged(context, key);
}

function judged(context: AppContext, key: AuthenticatedKey | undefined): Authentication {
  if (!key) return { ok: false, reason: 'unknown' };
  if (key.revokedAt !== null) return { ok: false, reason: 'revoked' };
  if (key.expiresAt !== null && key.expiresAt <= context.now()) return { ok: false, reason: 'expired' };
  return { ok: true, caller: { ...callerWith(key), calendarVersion: key.holderCalendarVersion } };
}

interface KnownKey {
  databaseVersion: string;
  key: AuthenticatedKey;
}

const MAX_KNOWN_KEYS = 10_000;
const knownKeysByStore = new WeakMap<Store, Map<string, KnownKey>>();

/**
 * The key presented as `token`. While the database is unchanged since a key was read (nothing
 * committed by any process: no revocation, no calendar change), the key as read then is still
 * the key as it is; the version is taken before the read, so a key read meanwhile is at least as
 * new as its label. Expiry is checked against the clock on every request all the same. Known keys
 * are found by the token itself, which the process holds for the request anyway: its digest is
 * what the store keeps, and computing it was a tenth of a cached slot query.
 */
function findKey(store: Store, token: string): AuthenticatedKey | undefined | Promise<AuthenticatedKey | undefined> {
  const databaseVersion = store.databaseVersion();
  if (databaseVersion === null) return store.findApiKeyByDigest(digestOf(token));
  let known = knownKeysByStore.get(store);
  if (!known) {
    known = new Map();
    knownKeysByStore.set(store, known);
  }
  const cached = known.get(token);
  if (cached && cached.databaseVersion === databaseVersion) return cached.key;
  return store.findApiKeyByDigest(digestOf(token)).then((key) => {
    if (key) {
      if (known.size >= MAX_KNOWN_KEYS) known.clear();
      known.set(token, { databaseVersion, key });
    }
    return key;
  });
}

export function callerWith(key: ApiKey): Caller {
  return {
    holderId: key.holderId,
    holderName: key.holderName,
    keyId: key.id,
    scopes: key.scopes,
    keyCreatedAt: key.createdAt,
    keyExpiresAt: key.expiresAt,
    calendarVersion: null,
  };
}

export function hasScope(caller: Caller, needed: 'read' | 'write'): boolean {
  return caller.scopes.includes('*') || caller.scopes.includes(needed);
}
