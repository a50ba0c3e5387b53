import type { ApiKey, Scope } from '../domain/api-key.js';
import { DomainError, notFound } from '../domain/errors.js';
import { DAY_MS } from '../domain/instant.js';
import type { PageRequest } from '../domain/page.js';
import { newToken } from './api-keys.js';
import type { AppContext } from './context.js';
import { getHolder } from './holders.js';
import { digestOf } from './key-cache.js';
import { pageOf, type Page } from './paging.js';

// The keys of an account's holders, managed in account scope (contract §12). A key is shown
// once, in the answer that creates it; the store keeps its SHA-256 only.

export interface CreateHolderKeyInput {
  scopes: Scope[];
  /** Null or absent: the key never expires. */
  expiresInDays?: number;
  description?: string | null;
}

export interface CreatedHolderKey {
  key: ApiKey;
  /** The bearer token, `sw_…`: in this answer only. */
  token: string;
}

/**
 * A new key of the account's live holder; past `KEYS_PER_HOLDER` keys that are not revoked,
 * 409 `limit-reached`.
 */
export async function createHolderKey(
  context: AppContext,
  accountId: string,
  holderId: string,
  input: CreateHolderKeyInput,
): Promise<CreatedHolderKey> {
  const token = newToken();
  const now = context.now();
  const key: ApiKey = {
    id: context.ids.newId('key'),
    accountId,
    holderId,
    scopes: input.scopes,
    description: input.description ?? null,
    createdAt: now,
    expiresAt: input.expiresInDays === undefined ? null : now + input.expiresInDays * DAY_MS,
    revokedAt: null,
  };
  await context.store.transaction(
    async (tx) => {
      // Holding the holder's row, so two creations at once cannot both take the last place, and a
      // deletion of the holder either waits for this key (and revokes it) or comes first (404).
      const holder = await tx.holders.lockedLive(holderId);
      if (!holder || holder.accountId !== accountId) throw notFound(`Holder ${holderId}`);
      const limit = context.accounts.keysPerHolder;
      if ((await tx.apiKeys.countUnrevoked(holderId)) >= limit) {
        throw new DomainError(
          'limit-reached',
          `This holder has ${limit} keys that are not revoked, the most it may have (KEYS_PER_HOLDER); revoke one to make another.`,
        );
      }
      await tx.apiKeys.insert(key, digestOf(token));
    },
    { ownerIds: [holderId] },
  );
  return { key, token };
}

/** Whether the key a replayed creation shows still works: a replay shows it only until it is revoked. */
export async function holderKeyIsLive(
  context: Pick<AppContext, 'store'>,
  accountId: string,
  keyId: string,
): Promise<boolean> {
  const key = await context.store.apiKeys.get(keyId);
  return key !== undefined && key.accountId === accountId && key.revokedAt === null;
}

/** The holder's keys, revoked ones too, oldest first; never the key itself. */
export async function listHolderKeys(
  context: AppContext,
  accountId: string,
  holderId: string,
  page: PageRequest,
): Promise<Page<ApiKey>> {
  const holder = await getHolder(context, accountId, holderId);
  return pageOf(
    page.limit,
    (limit) => context.store.apiKeys.listOf(holder.id, { limit, after: page.after }),
    (key) => key.createdAt,
  );
}

/**
 * Revokes the holder's key. The transaction's scope names the holder, so this process reads the
 * key again on its next request (401 at once); other processes hear of it through the change
 * signal. Unknown, another holder's and already revoked keys are not found.
 */
export async function revokeHolderKey(
  context: AppContext,
  accountId: string,
  holderId: string,
  keyId: string,
): Promise<void> {
  const holder = await getHolder(context, accountId, holderId);
  const revoked = await context.store.transaction((tx) => tx.apiKeys.revokeOf(holder.id, keyId, context.now()), {
    ownerIds: [holder.id],
  });
  if (!revoked) throw notFound(`Key ${keyId}`);
}
