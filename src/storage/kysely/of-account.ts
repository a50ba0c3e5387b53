import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { AccountFilter } from '../../app/ports/store.js';
import type { Database } from '../schema.js';

/**
 * Restricts a read of `bookings` (bookings and holds) to what an account-scope list shows
 * (contract §12): the rows of the account's holders, deleted ones included, or of the one holder
 * of it named. The account's holders come from `holders_by_account`; each holder's rows from the
 * holder's own indexes, as in a per-holder list.
 */
export function ofAccount<O>(
  query: SelectQueryBuilder<Database, 'bookings', O>,
  db: Kysely<Database>,
  filter: AccountFilter,
): SelectQueryBuilder<Database, 'bookings', O> {
  const scoped = query.where(
    'holder_id',
    'in',
    db.selectFrom('holders').select('id').where('account_id', '=', filter.accountId),
  );
  return filter.holderId === null ? scoped : scoped.where('holder_id', '=', filter.holderId);
}
