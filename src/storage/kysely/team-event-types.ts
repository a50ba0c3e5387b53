import type { Kysely, Selectable } from 'kysely';
import type { Instant } from '../../domain/instant.js';
import type { TeamEventType, TeamHost } from '../../domain/team-event-type.js';
import type { TeamEventTypeWithHandle, TeamEventTypeWrites } from '../../app/ports/store.js';
import type { Database } from '../schema.js';
import { teamEventTypeRow, teamHostRows, toTeamEventType, toTeamHost } from './rows.js';
import { Table } from './table.js';

/** The hosts of each of the team event types `ids`, in their order. */
export async function hostsOf(db: Kysely<Database>, ids: readonly string[]): Promise<Map<string, TeamHost[]>> {
  const hosts = new Map<string, TeamHost[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return hosts;
  const rows = await db
    .selectFrom('event_type_hosts')
    .selectAll()
    .where('event_type_id', 'in', [...hosts.keys()])
    .orderBy('event_type_id')
    .orderBy('position')
    .execute();
  for (const row of rows) hosts.get(row.event_type_id)!.push(toTeamHost(row));
  return hosts;
}

/** Team event types from their rows (each with its account's handle), their hosts read in one statement. */
export async function withHosts(
  db: Kysely<Database>,
  rows: Array<Selectable<Database['event_types']> & { account_handle: string }>,
): Promise<TeamEventTypeWithHandle[]> {
  const hosts = await hostsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map(({ account_handle, ...row }) => ({
    ...toTeamEventType(row, hosts.get(row.id)!),
    accountHandle: account_handle,
  }));
}

export class KyselyTeamEventTypes extends Table implements TeamEventTypeWrites {
  async get(id: string): Promise<TeamEventTypeWithHandle | undefined> {
    const row = await this.live().where('event_types.id', '=', id).executeTakeFirst();
    return row && (await withHosts(this.db, [row]))[0];
  }

  async listPublic(accountId: string): Promise<TeamEventTypeWithHandle[]> {
    const rows = await this.publicOf(accountId).orderBy('event_types.title').orderBy('event_types.id').execute();
    return withHosts(this.db, rows);
  }

  async findPublic(accountId: string, slug: string): Promise<TeamEventTypeWithHandle | undefined> {
    // By `event_types_live_team_slug` (account, slug).
    const row = await this.publicOf(accountId).where('event_types.slug', '=', slug).executeTakeFirst();
    return row && (await withHosts(this.db, [row]))[0];
  }

  /** Live team event types, with their account's handle. */
  private live() {
    return this.db
      .selectFrom('event_types')
      .innerJoin('accounts', 'accounts.id', 'event_types.account_id')
      .selectAll('event_types')
      .select('accounts.handle as account_handle')
      .where('event_types.holder_id', 'is', null)
      .where('event_types.deleted_at', 'is', null);
  }

  private publicOf(accountId: string) {
    return this.live().where('event_types.account_id', '=', accountId).where('event_types.public', '=', 1);
  }

  async countLive(accountId: string): Promise<number> {
    // From `event_types_live_team_slug`, which holds exactly the live team types.
    const row = await this.db
      .selectFrom('event_types')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('account_id', '=', accountId)
      .where('holder_id', 'is', null)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async slugsLike(accountId: string, base: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('event_types')
      .select('slug')
      .where('account_id', '=', accountId)
      .where('holder_id', 'is', null)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
      .execute();
    return new Set(rows.map((row) => row.slug));
  }

  async insert(eventType: TeamEventType): Promise<void> {
    this.scope.writes(eventType.accountId);
    await this.db
      .insertInto('event_types')
      .values({ ...teamEventTypeRow(eventType), deleted_at: null })
      .execute();
    await this.db.insertInto('event_type_hosts').values(teamHostRows(eventType)).execute();
  }

  async update(eventType: TeamEventType): Promise<void> {
    this.scope.writes(eventType.accountId);
    await this.db
      .updateTable('event_types')
      .set(teamEventTypeRow(eventType))
      .where('account_id', '=', eventType.accountId)
      .where('holder_id', 'is', null)
      .where('id', '=', eventType.id)
      .execute();
    await this.db.deleteFrom('event_type_hosts').where('event_type_id', '=', eventType.id).execute();
    await this.db.insertInto('event_type_hosts').values(teamHostRows(eventType)).execute();
  }

  async delete(accountId: string, id: string, at: Instant): Promise<boolean> {
    this.scope.writes(accountId);
    const result = await this.db
      .updateTable('event_types')
      .set({ deleted_at: at, updated_at: at })
      .where('account_id', '=', accountId)
      .where('holder_id', 'is', null)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
