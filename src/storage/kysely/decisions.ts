import { sql } from 'kysely';
import type { DecisionReads, DecisionRules } from '../../app/ports/store.js';
import { compiledOnce } from './compiled-once.js';
import { toEventType } from './rows.js';
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
}
