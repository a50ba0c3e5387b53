import type { Instant } from './instant.js';

/** What a key may do: `read` (GET/HEAD), `write` (every other method), `*` (both). */
export const SCOPES = ['read', 'write', '*'] as const;
export type Scope = (typeof SCOPES)[number];

/** Whose calendar a key reaches: every record belongs to one holder. */
export interface Holder {
  id: string;
  name: string;
  createdAt: Instant;
}

export interface ApiKey {
  id: string;
  holderId: string;
  holderName: string;
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
