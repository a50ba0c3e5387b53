import type { Instant } from './instant.js';

/** What a key may do: `read` (GET/HEAD), `write` (every other method), `*` (both). */
export const SCOPES = ['read', 'write', '*'] as const;
export type Scope = (typeof SCOPES)[number];

/** Whose calendar a key reaches: every record belongs to one holder. */
export interface Holder {
  id: string;
  /** Unique; what `keys create --holder` names. */
  name: string;
  /** Unique; the holder's booking pages live under `/book/{handle}` (contract §10). */
  handle: string;
  /** Shown to guests; null shows `name`. */
  displayName: string | null;
  /** Counts calendar feed link rotations: a link made for an older generation no longer works. */
  feedGeneration: number;
  createdAt: Instant;
}

/** What creating a holder needs: the rest is derived (the handle from the name) or starts empty. */
export type NewHolder = Pick<Holder, 'id' | 'name' | 'createdAt'>;

export interface ApiKey {
  id: string;
  holderId: string;
  holderName: string;
  holderHandle: string;
  scopes: Scope[];
  createdAt: Instant;
  expiresAt: Instant | null;
  revokedAt: Instant | null;
}

/** The scope a method needs: reading methods need `read`, everything else `write`. */
export function scopeNeededFor(method: string): 'read' | 'write' {
  const upper = method.toUpperCase();
  return upper === 'GET' || upper === 'HEAD' ? 'read' : 'write';
}

export function grants(scopes: readonly Scope[], needed: 'read' | 'write'): boolean {
  return scopes.includes('*') || scopes.includes(needed);
}
