import type { Hold } from '../../domain/hold.js';
import type { Instant } from '../../domain/instant.js';
import { sql, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { AccountFilter, HoldQuery, HoldWrites, LivePageHolds } from '../../app/ports/store.js';
import type { Database } from '../schema.js';
import { keysetPage } from './keyset.js';
import { insertOccupyingRow } from './bookings.js';
import { compiledOnce } from './compiled-once.js';
import { ofAccount } from './of-account.js';
import { HELD, holdRow, toHold } from './rows.js';
import { Table } from './table.js';

const holderOfHold = compiledOnce<{ id: string }>()((db, param) =>
  db.selectFrom('bookings').select('holder_id').where('id', '=', param('id')).where('status', '=', sql.lit(HELD)),
);

/** Holds, as rows of `bookings` with status `held` (migration 0006 says why). */
export class KyselyHolds extends Table implements HoldWrites {
  async get(holderId: string, id: string, now: Instant): Promise<Hold | undefined> {
    const row = await this.db
      .selectFrom('bookings')
      .selectAll()
      .where('holder_id', '=', holderId)
      .where('id', '=', id)
      .where('status', '=', HELD)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row && toHold(row);
  }

  async insert(hold: Hold): Promise<boolean> {
    this.scope.writes(...hold.hostIds);
    return insertOccupyingRow(this.db, this.engine, holdRow(hold), hold);
  }

  async end(holderId: string, id: string, now: Instant): Promise<Hold | undefined> {
    this.scope.writes(holderId);
    // One conditional statement: of two requests ending the same hold, or one ending it while
    // another takes its expired time, exactly one removes the row.
    const row = await this.db
      .deleteFrom('bookings')
      .where('holder_id', '=', holderId)
      .where('id', '=', id)
      .where('status', '=', HELD)
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
    return row && toHold(row);
  }

  async dropExpired(holderId: string, ids: string[], now: Instant): Promise<void> {
    this.scope.writes(holderId);
    if (ids.length === 0) return;
    await this.db
      .deleteFrom('bookings')
      .where('holder_id', '=', holderId)
      .where('id', 'in', ids)
      .where('status', '=', HELD)
      .where('expires_at', '<=', now)
      .execute();
  }

  async endPageHoldsOf(holderId: string, pageSession: string, now: Instant): Promise<void> {
    this.scope.writes(holderId);
    await this.db
      .deleteFrom('bookings')
      .where('holder_id', '=', holderId)
      .where('status', '=', HELD)
      .where('page_session', '=', pageSession)
      .where('expires_at', '>', now)
      .execute();
  }

  async countLivePageHolds(holderId: string, client: string, now: Instant): Promise<LivePageHolds> {
    const row = await this.db
      .selectFrom('bookings')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('of_holder'),
        eb.fn
          .sum<number | string | null>(eb.case().when('page_client', '=', client).then(1).else(0).end())
          .as('of_client'),
      ])
      .where('holder_id', '=', holderId)
      .where('status', '=', HELD)
      .where('page_session', 'is not', null)
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow();
    return { ofHolder: Number(row.of_holder), ofClient: Number(row.of_client ?? 0) };
  }

  async holderOf(id: string): Promise<string | undefined> {
    const [row] = await holderOfHold(this.db, this.engine, { id });
    return row?.holder_id ?? undefined;
  }

  listLive(holderId: string, query: HoldQuery, now: Instant): Promise<Hold[]> {
    return this.live(this.db.selectFrom('bookings').selectAll().where('holder_id', '=', holderId), query, now);
  }

  listLiveOfAccount(filter: AccountFilter, query: HoldQuery, now: Instant): Promise<Hold[]> {
    return this.live(ofAccount(this.db.selectFrom('bookings').selectAll(), this.db, filter), query, now);
  }

  private async live(
    holds: SelectQueryBuilder<Database, 'bookings', Selectable<Database['bookings']>>,
    query: HoldQuery,
    now: Instant,
  ): Promise<Hold[]> {
    let select = holds.where('status', '=', HELD).where('expires_at', '>', now);
    if (query.from !== null) select = select.where('start_at', '>=', query.from);
    if (query.to !== null) select = select.where('start_at', '<', query.to);
    if (query.eventTypeId !== null) select = select.where('event_type_id', '=', query.eventTypeId);
    const rows = await keysetPage(select, { key: 'start_at', id: 'id' }, query).execute();
    return rows.map(toHold);
  }

  async endAllOf(holderId: string, eventTypeId: string): Promise<void> {
    this.scope.writes(holderId);
    await this.db
      .deleteFrom('bookings')
      .where('holder_id', '=', holderId)
      .where('event_type_id', '=', eventTypeId)
      .where('status', '=', HELD)
      .execute();
  }

  async endAllOfHolder(holderId: string): Promise<void> {
    this.scope.writes(holderId);
    await this.db.deleteFrom('bookings').where('holder_id', '=', holderId).where('status', '=', HELD).execute();
  }
}
