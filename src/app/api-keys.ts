import { randomBytes } from 'node:crypto';
import type { ApiKey, Holder, NamedKey, Scope } from '../domain/api-key.js';
import type { Instant } from '../domain/instant.js';
import { newDefaultSchedule } from '../domain/schedule.js';
import type { AppContext, Principal } from './context.js';
import { digestOf } from './key-cache.js';
import type { ActingHolder, AuthenticatedKey, Transaction } from './ports/store.js';

export const API_KEY_PREFIX = 'sw_';

/** The shape of every holder id (`IdGenerator`): what `Slotwise-Holder` must hold. */
export const HOLDER_ID_PATTERN = '^hdr_[0-9a-z]{20}$';
const HOLDER_ID = new RegExp(HOLDER_ID_PATTERN);

export interface CreateKeyInput {
  /** The account (created on first use of the name). */
  accountName: string;
  /** The holder of the account the key is for (created there on first use); none for an account key. */
  holderName: string | null;
  scopes: Scope[];
  expiresAt: Instant | null;
  description?: string | null;
}

export interface CreatedKey {
  key: NamedKey;
  token: string;
}

export function newToken(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** Creates the key (and its account and holder on first use of their names); the plain key exists only in the result. */
export async function createApiKey(
  context: Pick<AppContext, 'store' | 'now' | 'ids'>,
  input: CreateKeyInput,
): Promise<CreatedKey> {
  const token = newToken();
  const now = context.now();
  const key = await context.store.transaction(async (tx) => {
    const account = await tx.accounts.ensure({ id: context.ids.newId('acc'), name: input.accountName, createdAt: now });
    const holder =
      input.holderName === null ? null : await ensureHolder(context, tx, account.id, input.holderName, now);
    const key: ApiKey = {
      id: context.ids.newId('key'),
      accountId: account.id,
      holderId: holder?.id ?? null,
      scopes: input.scopes,
      description: input.description ?? null,
      createdAt: now,
      expiresAt: input.expiresAt,
      revokedAt: null,
    };
    await tx.apiKeys.insert(key, digestOf(token));
    return { ...key, accountName: account.name, holderName: holder?.name ?? null };
  });
  return { key, token };
}

/** The account's holder of that name, made on first use with its default schedule (Mon–Fri 09:00–17:00 UTC). */
function ensureHolder(
  context: Pick<AppContext, 'ids'>,
  tx: Transaction,
  accountId: string,
  name: string,
  now: Instant,
): Promise<Holder> {
  const id = context.ids.newId('hdr');
  return tx.holders.ensure(
    { id, accountId, name, createdAt: now },
    newDefaultSchedule(context.ids.newId('sch'), id, 'UTC', now),
  );
}

export function listApiKeys(context: Pick<AppContext, 'store'>): Promise<NamedKey[]> {
  return context.store.apiKeys.list();
}

export async function revokeApiKey(context: Pick<AppContext, 'store' | 'now'>, keyId: string): Promise<boolean> {
  return context.store.transaction((tx) => tx.apiKeys.revoke(keyId, context.now()));
}

export type Authentication =
  | {
      ok: true;
      principal: Principal;
      /**
       * The calendar version of the holder the request acts for, read with the key or the
       * holder: a freshness hint for the slot query, not part of who calls. Null in account scope.
       */
      calendarVersion: number | null;
    }
  | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'revoked' | 'expired' }
  /** `Slotwise-Holder` holds no holder id at all (400), or names no holder this key may act for (404). */
  | { ok: false; reason: 'holder-malformed' | 'holder-not-found' };

/**
 * Reads `Authorization: Bearer <key>` and `Slotwise-Holder`; the key itself is only ever compared
 * by digest. Answers at once, without a promise, when the key and the holder are known unchanged
 * (see `KeyCache`, `HolderCache`): every warm request.
 */
export function authenticate(
  context: AppContext,
  authorization: string | undefined,
  holderHeader: string | undefined,
): Authentication | Promise<Authentication> {
  if (authorization === undefined || authorization === '') return { ok: false, reason: 'missing' };
  const match = /^Bearer +([A-Za-z0-9_\-.~+/]+=*) *$/i.exec(authorization);
  if (!match) return { ok: false, reason: 'malformed' };
  const key = context.keys.find(match[1]!);
  return key instanceof Promise
    ? key.then((found) => judged(context, found, holderHeader))
    : judged(context, key, holderHeader);
}

function judged(
  context: AppContext,
  key: AuthenticatedKey | undefined,
  holderHeader: string | undefined,
): Authentication | Promise<Authentication> {
  if (!key) return { ok: false, reason: 'unknown' };
  if (key.revokedAt !== null || key.holder?.deletedAt != null) return { ok: false, reason: 'revoked' };
  if (key.expiresAt !== null && key.expiresAt <= context.now()) return { ok: false, reason: 'expired' };
  if (holderHeader === undefined) return actingFor(key, key.holder);
  if (!HOLDER_ID.test(holderHeader)) return { ok: false, reason: 'holder-malformed' };
  // A holder key may name only its own holder.
  if (key.holder !== null)
    return key.holder.id === holderHeader ? actingFor(key, key.holder) : { ok: false, reason: 'holder-not-found' };
  const holder = context.holders.find(holderHeader);
  return holder instanceof Promise ? holder.then((found) => accountActing(key, found)) : accountActing(key, holder);
}

function accountActing(key: AuthenticatedKey, holder: ActingHolder | undefined): Authentication {
  // Another account's, deleted or unknown: one answer for each.
  if (!holder || holder.accountId !== key.accountId || holder.deletedAt !== null)
    return { ok: false, reason: 'holder-not-found' };
  return actingFor(key, holder);
}

function actingFor(key: AuthenticatedKey, holder: ActingHolder | null): Authentication {
  return {
    ok: true,
    principal: principalOf(key, holder),
    calendarVersion: holder?.calendarVersion ?? null,
  };
}

export function principalOf(key: ApiKey, holder: Pick<ActingHolder, 'id' | 'name' | 'handle'> | null): Principal {
  return {
    accountId: key.accountId,
    keyId: key.id,
    keyHolderId: key.holderId,
    scopes: key.scopes,
    keyCreatedAt: key.createdAt,
    keyExpiresAt: key.expiresAt,
    actingFor: holder && { id: holder.id, name: holder.name, handle: holder.handle },
  };
}
