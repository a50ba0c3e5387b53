import { DEFAULT_PAGE_SIZE, decodeCursor, type Page } from '../app/paging.js';
import type { PageRequest } from '../domain/page.js';

/** `limit` and `cursor` of a list query, as the use cases take them (a bad cursor is a 400). */
export function pageRequestOf(query: { limit?: number; cursor?: string }): PageRequest {
  return { limit: query.limit ?? DEFAULT_PAGE_SIZE, after: decodeCursor(query.cursor) };
}

/** `{ data, nextCursor }`, the shape of every list answer. */
export function listBody<T, V>(page: Page<T>, view: (item: T) => V): { data: V[]; nextCursor: string | null } {
  return { data: page.items.map(view), nextCursor: page.nextCursor };
}
