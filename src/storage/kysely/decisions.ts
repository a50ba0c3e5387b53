import { sql } from 'kysely';
import type { Instant } from '../../domain/instant.js';
import type { DecisionReads, DecisionRules, HostRules, TeamDecisionRules } from '../../app/ports/store.js';
import { compiledOnce } from './compiled-once.js';
import { nullableNumber, toEventType, toTeamEventType, toTeamHost } from './rows.js';
import { Table } from './table.js';

/**
 * The event type with the schedule it is booked in (its `schedule_id`, else its holder's default
 * schedule), its holder's share-locked sources and its active webhooks, as one row: one statement
 * where a decision had sent four, each a round trip on PostgreSQL. Every later statement of the
 * decision (the occupancies, the busy time) runs after the sources' locks are held, as
 * `DecisionRules.sources` requires.
 */
const rulesOf = compiledOnce<{ holderId: string; eventTypeId: string }>()((db, param, engine) =>
  db
    .selectFrom('event_types as e')
    .innerJoin('holders as h', 'h.id', 'e.holder_id')
    .innerJoin('schedules as s', (join) =>
      join
        .onRef('s.holder_id', '=', 'e.holder_id')
        .on(sql<boolean>`(s.id = e.schedule_id or (e.schedule_id is null and s.is_default = 1))`),
    )
    .selectAll('e')
    .select(['s.time_zone as schedule_time_zone', 's.weekly as schedule_weekly', 's.overrides as schedule_overrides'])
    .select(engine.sharedSourceCount('e.holder_id').as('sources'))
    .select(engine.activeWebhooks('e.holder_id', 'h.account_id').as('webhooks'))
    .where('e.holder_id', '=', param('holderId'))
    .where('e.id', '=', param('eventTypeId'))
    .where('e.deleted_at', 'is', null),
);

/** The predicate of `team_booking_hosts_confirmed_by_event_type` (migration 0017), word for word: SQLite uses the partial index only then. */
const CONFIRMED_HOST = sql<boolean>`confirmed = 1`;

/**
 * A team event type of the account with every host, in the hosts' order, one row per host: the
 * type's columns, the host entry, the schedule it offers the type in (the entry's, else the
 * host's default), and round robin's counts (contract §14): its confirmed bookings of the type
 * created since `loadSince`, and when its latest was created, each read by
 * `team_booking_hosts_confirmed_by_event_type` (migration 0017), from the index alone.
 */
const teamRulesOf = compiledOnce<{ accountId: string; eventTypeId: string; loadSince: Instant }>()((db, param) =>
  db
    .selectFrom('event_types as e')
    .innerJoin('event_type_hosts as h', 'h.event_type_id', 'e.id')
    .innerJoin('schedules as s', (join) =>
      join
        .onRef('s.holder_id', '=', 'h.holder_id')
        .on(sql<boolean>`(s.id = h.schedule_id or (h.schedule_id is null and s.is_default = 1))`),
    )
    .selectAll('e')
    .select([
      'h.holder_id as host_holder_id',
      'h.schedule_id as host_schedule_id',
      'h.fixed as host_fixed',
      'h.priority as host_priority',
      'h.weight as host_weight',
      'h.position as host_position',
      's.time_zone as schedule_time_zone',
      's.weekly as schedule_weekly',
      's.overrides as schedule_overrides',
    ])
    .select((eb) => [
      eb
        .selectFrom('team_booking_hosts as t')
        .select((count) => count.fn.countAll<number | string>().as('n'))
        .whereRef('t.event_type_id', '=', 'e.id')
        .whereRef('t.holder_id', '=', 'h.holder_id')
        .where(CONFIRMED_HOST)
        .where('t.created_at', '>=', param('loadSince'))
        .as('recent_bookings'),
      eb
        .selectFrom('team_booking_hosts as t')
        .select('t.created_at')
        .whereRef('t.event_type_id', '=', 'e.id')
        .whereRef('t.holder_id', '=', 'h.holder_id')
        .where(CONFIRMED_HOST)
        .orderBy('t.created_at', 'desc')
        .limit(sql.lit(1))
        .as('last_booked_at'),
    ])
    .where('e.id', '=', param('eventTypeId'))
    .where('e.account_id', '=', param('accountId'))
    .where('e.holder_id', 'is', null)
    .where('e.deleted_at', 'is', null)
    .orderBy('h.position'),
);

export class KyselyDecisions extends Table implements DecisionReads {
  async rulesFor(holderId: string, eventTypeId: string): Promise<DecisionRules | undefined> {
    const [row] = await rulesOf(this.db, this.engine, { holderId, eventTypeId });
    if (!row) return undefined;
    return {
      eventType: toEventType(row),
      schedule: {
        timeZone: row.schedule_time_zone,
        weekly: JSON.parse(row.schedule_weekly),
        overrides: JSON.parse(row.schedule_overrides),
      },
      sources: Number(row.sources),
      webhooks: (JSON.parse(row.webhooks) as Array<{ id: string; events: string }>).map((w) => ({
        id: w.id,
        events: JSON.parse(w.events) as string[],
      })),
    };
  }

  async teamRulesFor(
    accountId: string,
    eventTypeId: string,
    loadSince: Instant,
  ): Promise<TeamDecisionRules | undefined> {
    const rows = await teamRulesOf(this.db, this.engine, { accountId, eventTypeId, loadSince });
    if (rows.length === 0) return undefined;
    const entries = rows.map((row) =>
      toTeamHost({
        event_type_id: row.id,
        holder_id: row.host_holder_id,
        schedule_id: row.host_schedule_id,
        fixed: row.host_fixed,
        priority: row.host_priority,
        weight: row.host_weight,
        position: row.host_position,
      }),
    );
    const hosts: HostRules[] = rows.map((row, index) => ({
      holderId: entries[index]!.holderId,
      fixed: entries[index]!.fixed,
      priority: entries[index]!.priority,
      weight: entries[index]!.weight,
      schedule: {
        timeZone: row.schedule_time_zone,
        weekly: JSON.parse(row.schedule_weekly),
        overrides: JSON.parse(row.schedule_overrides),
      },
      recentBookings: Number(row.recent_bookings ?? 0),
      lastBookedAt: nullableNumber(row.last_booked_at ?? null),
    }));
    return { eventType: toTeamEventType(rows[0]!, entries), hosts };
  }

  async sharedSources(holderIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (holderIds.length === 0) return counts;
    // Sorted by holder: two decisions over overlapping hosts take the locks in one order.
    const rows = await this.engine
      .sharingRows(
        this.db
          .selectFrom('calendar_sources')
          .select('holder_id')
          .where('holder_id', 'in', [...new Set(holderIds)])
          .orderBy('holder_id')
          .orderBy('id'),
      )
      .execute();
    for (const row of rows) counts.set(row.holder_id, (counts.get(row.holder_id) ?? 0) + 1);
    return counts;
  }
}
