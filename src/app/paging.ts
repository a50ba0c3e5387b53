import { invalidRequest } from '../domain/errors.js';
import type { PageAfter } from '../domain/page.js';
import type { Caller } from './context.js';
import type { AccountFilter } from './ports/store.js';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export const DEFAULT_PAGE_SIZE = 50;

/**
 * Whose items a list shows (contract §12): the holder a request acts for, or in account scope
 * those of the account's holders (see `listScopeOf`).
 */
export type ListScope = { caller: Caller } | { account: AccountFilter };

/** Cursors are opaque to clients: base64url of the last item's sort key and id. */
export function decodeCursor(cursor: string | undefined): PageAfter | null {
  if (cursor === undefined) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) && typeof value[1] === 'string') {
      return { key: value[0] as number, id: value[1] as string };
    }
  } catch {
    // fall through to the invalid-request answer
  }
  throw invalidRequest([{ field: 'cursor', message: 'is not a cursor returned by this list' }]);
}

/** Fetches one item more than asked, to know whether another page exists without a count query. */
export async function pageOf<T extends { id: string }>(
  limit: number,
  fetch: (limitPlusOne: number) => Promise<T[]>,
  sortKey: (item: T) => number,
): Promise<Page<T>> {
  const rows = await fetch(limit + 1);
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  const nextCursor =
    rows.length > limit && last ? Buffer.from(JSON.stringify([sortKey(last), last.id])).toString('base64url') : null;
  return { items, nextCursor };
}
