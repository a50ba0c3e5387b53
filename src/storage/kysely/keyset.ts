import { sql, type SelectQueryBuilder } from 'kysely';
import type { PageRequest } from '../../domain/page.js';

/**
 * One page of a list kept in `(key, id)` order: the rows after the page's position, ordered, at
 * most `limit` of them. The position is a row-value comparison, which both engines have and
 * answer from an index on the two columns.
 */
export function keysetPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  columns: { key: string; id: string },
  page: PageRequest,
  direction: 'asc' | 'desc' = 'asc',
): SelectQueryBuilder<DB, TB, O> {
  const key = sql.ref(columns.key);
  const id = sql.ref(columns.id);
  const after = page.after;
  const from = after
    ? query.where(sql<boolean>`(${key}, ${id}) ${sql.raw(direction === 'asc' ? '>' : '<')} (${after.key}, ${after.id})`)
    : query;
  return from.orderBy(key, direction).orderBy(id, direction).limit(page.limit);
}
