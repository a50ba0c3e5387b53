import { HOLD_SECONDS, type Hold } from '../../domain/hold.js';
import { SECOND_MS, type Instant } from '../../domain/instant.js';
import { sql, type Selectable, type SelectQueryBuilder } from 'kysely';
import type {
  AccountFilter,
  EndedHold,
  HoldEnding,
  HoldQuery,
  HoldWrites,
  LivePageHolds,
  Ownership,
  Reach,
  Seat,
} from '../../app/ports/store.js';
import type { Database } from '../schema.js';
import { keysetPage } from './keyset.js';
import { insertOccupyingRow, ownershipOf } from './bookings.js';
import { compiledOnce } from './compiled-once.js';
import { MAX_BUFFER_MS } from './occupancies.js';
import { HELD, holdRow, toHold } from './rows.js';
import { Table } from './table.js';

const ownerOfHold = compiledOnce<{ id: string }>()((db, param) =>
  db
    .selectFrom('bookings')
    .select(['holder_id', 'account_id', 'host_ids'])
    .where('id', '=', param('id'))
    .where('status', '=', sql.lit(HELD)),
);

/** Holds of the holder, or the account's team holds (a holder hosting one does not own it). */
function reachedBy(reach: Reach) {
  return 'holderId' in reach
    ? sql<boolean>`holder_id = ${reach.holderId}`
    : sql<boolean>`account_id = ${reach.accountId} and holder_id is null`;
}

/** Holds, as rows of `bookings` with status `held` (migration 0006 says why). */
export class KyselyHolds extends Table implements HoldWrites {
  async get(reach: Reach, id: string, now: Instant): Promise<Hold | undefined> {
    const row = await this.db
      .selectFrom('bookings')
      .selectAll()
      .where(reachedBy(reach))
      .where('id', '=', id)
      .where('status', '=', HELD)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row && toHold(row);
  }

  async insert(hold: Hold, seat: Seat | null = null): Promise<boolean> {
    this.scope.writes(...hold.hostIds);
    return insertOccupyingRow(this.db, this.engine, holdRow(hold), { ...hold, seat });
  }

  async end(owner: HoldEnding, id: string, now: Instant): Promise<EndedHold | undefined> {
    if ('holderId' in owner) this.scope.writes(owner.holderId);
    else this.scope.writes(owner.accountId, ...owner.hostIds);
    // Read first: removing the hold removes its occupancy rows. Only the delete below decides
    // whether it ended, and a live hold's rows and their occurrence never change.
    const seat = await this.db
      .selectFrom('occupancies')
      .select(['occurrence', 'seat'])
      .where('booking_id', '=', id)
      .executeTakeFirst();
    // One conditional statement: of two requests ending the same hold, or one ending it while
    // another takes its expired time, exactly one removes the row.
    const row = await this.db
      .deleteFrom('bookings')
      .where(reachedBy(owner))
      .where('id', '=', id)
      .where('status', '=', HELD)
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
    return (
      row && {
        ...toHold(row),
        seat: seat?.occurrence ? { occurrence: seat.occurrence, number: Number(seat.seat) } : null,
      }
    );
  }

  async dropExpired(hostId: string, ids: string[], now: Instant): Promise<void> {
    this.scope.writes(hostId);
    if (ids.length === 0) return;
    // By id alone: a team hold (no holder) occupies the host's time as a holder's own does.
    await this.db
      .deleteFrom('bookings')
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

  async livePageHoldsOfSession(reach: Reach, pageSession: string, now: Instant): Promise<Hold[]> {
    const rows = await this.db
      .selectFrom('bookings')
      .selectAll()
      .where(reachedBy(reach))
      .where('status', '=', HELD)
      .where('page_session', '=', pageSession)
      .where('expires_at', '>', now)
      .execute();
    return rows.map(toHold);
  }

  async countLivePageHolds(hostId: string, client: string, now: Instant): Promise<LivePageHolds> {
    // Through the host's occupancies (a holder's own holds and the team holds it is a host of
    // alike), sought from the earliest time a live hold can occupy: made at most the longest
    // hold's life ago, for a start no earlier than then, less the longest buffer.
    const row = await this.db
      .selectFrom('occupancies')
      .innerJoin('bookings', 'bookings.id', 'occupancies.booking_id')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('of_host'),
        eb.fn
          .sum<number | string | null>(eb.case().when('bookings.page_client', '=', client).then(1).else(0).end())
          .as('of_client'),
      ])
      .where('occupancies.holder_id', '=', hostId)
      .where('occupancies.occupied_start', '>=', now - HOLD_SECONDS.max * SECOND_MS - MAX_BUFFER_MS)
      .where('occupancies.expires_at', '>', now)
      .where('bookings.page_session', 'is not', null)
      .executeTakeFirstOrThrow();
    return { ofHost: Number(row.of_host), ofClient: Number(row.of_client ?? 0) };
  }

  async ownerOf(id: string): Promise<Ownership | undefined> {
    const [row] = await ownerOfHold(this.db, this.engine, { id });
    return row && ownershipOf(row);
  }

  listLive(holderId: string, query: HoldQuery, now: Instant): Promise<Hold[]> {
    return this.live(this.db.selectFrom('bookings').selectAll().where('holder_id', '=', holderId), query, now);
  }

  listLiveOfAccount(filter: AccountFilter, query: HoldQuery, now: Instant): Promise<Hold[]> {
    // With a holder, its own holds: team holds are the account's, whoever they occupy.
    const ofAccount = this.db.selectFrom('bookings').selectAll().where('account_id', '=', filter.accountId);
    return this.live(
      filter.holderId === null ? ofAccount : ofAccount.where('holder_id', '=', filter.holderId),
      query,
      now,
    );
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

  async endAllOfTeam(accountId: string, eventTypeId: string, hostIds: readonly string[]): Promise<void> {
    this.scope.writes(accountId, ...hostIds);
    await this.db
      .deleteFrom('bookings')
      .where('account_id', '=', accountId)
      .where('holder_id', 'is', null)
      .where('event_type_id', '=', eventTypeId)
      .where('status', '=', HELD)
      .execute();
  }

  async hostsOfTeamHolds(eventTypeId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('bookings')
      .select('host_ids')
      .where('event_type_id', '=', eventTypeId)
      .where('holder_id', 'is', null)
      .where('status', '=', HELD)
      .execute();
    return [...new Set(rows.flatMap((row) => JSON.parse(row.host_ids) as string[]))];
  }

  async endAllOfHolder(holderId: string): Promise<void> {
    this.scope.writes(holderId);
    await this.db.deleteFrom('bookings').where('holder_id', '=', holderId).where('status', '=', HELD).execute();
  }
}
