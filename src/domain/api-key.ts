import type { Instant } from './instant.js';

/** What a key may do: `read` (GET/HEAD), `write` (every other method), `*` (both). */
export const SCOPES = ['read', 'write', '*'] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * An integrator's tenant (contract §12): it owns holders, and its keys act for any of them.
 * A holder made by `keys create --holder NAME` alone is the only holder of an account named NAME.
 */
export interface Account {
  id: string;
  /** Unique; what `keys create --account` names. */
  name: string;
  /** Unique among accounts: `[a-z0-9-]`, 1–64, derived from the name until set. */
  handle: string;
  displayName: string | null;
  createdAt: Instant;
  updatedAt: Instant;
}

/** Whose calendar is booked: every event type, booking, hold and calendar source belongs to one holder. */
export interface Holder {
  id: string;
  accountId: string;
  /** Unique among the account's live holders; what `keys create --holder` names. */
  name: string;
  /** Unique among live holders; the holder's booking pages live under `/book/{handle}` (contract §10). */
  handle: string;
  /** Shown to guests; null shows `name`. */
  displayName: string | null;
  email: string | null;
  /** Counts calendar feed link rotations: a link made for an older generation no longer works. */
  feedGeneration: number;
  createdAt: Instant;
  updatedAt: Instant;
  /** Set once deleted: its keys answer 401, its pages 404, its past bookings stay readable by the account. */
  deletedAt: Instant | null;
}

/** A holder named with its account: whose a piece of work is, where accounts and their holders take turns. */
export interface HolderOfAccount {
  accountId: string;
  holderId: string;
}

/** What creating a holder needs: the rest is derived (the handle from the name) or starts empty. */
export type NewHolder = Pick<Holder, 'id' | 'accountId' | 'name' | 'createdAt'> &
  Partial<Pick<Holder, 'displayName' | 'email'>>;

/** A key of an account: a holder key (`holderId` set) acts for its holder, an account key for any of the account's. */
export interface ApiKey {
  id: string;
  accountId: string;
  /** Null for an account key. */
  holderId: string | null;
  scopes: Scope[];
  description: string | null;
  createdAt: Instant;
  expiresAt: Instant | null;
  revokedAt: Instant | null;
}

/** A key with the names of its account and holder, as `keys list` shows it. */
export interface NamedKey extends ApiKey {
  accountName: string;
  holderName: string | null;
}

/** The scope a method needs: reading methods need `read`, everything else `write`. */
export function scopeNeededFor(method: string): 'read' | 'write' {
  const upper = method.toUpperCase();
  return upper === 'GET' || upper === 'HEAD' ? 'read' : 'write';
}

export function grants(scopes: readonly Scope[], needed: 'read' | 'write'): boolean {
  return scopes.includes('*') || scopes.includes(needed);
}
