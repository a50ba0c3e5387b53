import type { Account, ApiKey, Holder } from '../domain/api-key.js';
import { formatUtc } from '../domain/instant.js';
import type { Principal } from './context.js';

// The client-visible shapes of account scope (contract §12): holders, their keys, and `/me` for
// an account key. The rest are in views.ts.

/** A holder as its account manages it: `displayName` as set (null shows the name to guests). */
export function holderView(holder: Holder) {
  return {
    id: holder.id,
    name: holder.name,
    handle: holder.handle,
    displayName: holder.displayName,
    email: holder.email,
    createdAt: formatUtc(holder.createdAt),
    updatedAt: formatUtc(holder.updatedAt),
  };
}

/** A key as listed: never the key itself. */
export function keyView(key: ApiKey) {
  return {
    id: key.id,
    scopes: key.scopes,
    expiresAt: key.expiresAt === null ? null : formatUtc(key.expiresAt),
    description: key.description,
    createdAt: formatUtc(key.createdAt),
    revokedAt: key.revokedAt === null ? null : formatUtc(key.revokedAt),
  };
}

/** The answer that creates a key: the only one that shows it. */
export function createdKeyView(key: ApiKey, token: string) {
  return {
    id: key.id,
    key: token,
    scopes: key.scopes,
    expiresAt: key.expiresAt === null ? null : formatUtc(key.expiresAt),
    description: key.description,
    createdAt: formatUtc(key.createdAt),
  };
}

/** `GET /me` in account scope: the account (its shown name: `displayName`, else the name) and the calling key. */
export function accountMeView(principal: Principal, account: Account) {
  return {
    account: {
      id: account.id,
      name: account.name,
      handle: account.handle,
      displayName: account.displayName ?? account.name,
    },
    key: {
      id: principal.keyId,
      scopes: principal.scopes,
      createdAt: formatUtc(principal.keyCreatedAt),
      expiresAt: principal.keyExpiresAt === null ? null : formatUtc(principal.keyExpiresAt),
    },
  };
}
