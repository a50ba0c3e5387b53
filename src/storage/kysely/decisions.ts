import type { DecisionReads, DecisionRules } from '../../app/ports/store.js';
import { compiledOnce } from './compiled-once.js';
import { toEventType } from './rows.js';
import { Table } from './table.js';

/**
 * The event type with its holder's availability, the holder's creation (the default
 * availability's date), its share-locked sources and its active webhooks, as one row: one
 * statement where a decision had sent four, each a round trip on PostgreSQL. Every later statement of the decision (the
 * occupancies, the busy time) runs after the sources' locks are held, as `DecisionRules.sources`
 * requires.
 */
const rulesOf = compiledOnce<{ holderId: string; eventTypeId: string }>()((db, param, engine) =>
  db
    .selectFrom('event_types as e')
    .innerJoin('holders as h', 'h.id', 'e.holder_id')
    .leftJoin('availabilities as a', 'a.holder_id', 'e.holder_id')
    .selectAll('e')
    .select([
      'h.created_at as holder_created_at',
      'a.time_zone as availability_time_zone',
      'a.weekly as availability_weekly',
      'a.overrides as availability_overrides',
      'a.updated_at as availability_updated_at',
    ])
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
      availability:
        row.availability_time_zone === null
          ? undefined
          : {
              availability: {
                timeZone: row.availability_time_zone,
                weekly: JSON.parse(row.availability_weekly!),
                overrides: JSON.parse(row.availability_overrides!),
              },
              updatedAt: Number(row.availability_updated_at),
            },
      holderCreatedAt: Number(row.holder_created_at),
      sources: Number(row.sources),
      webhooks: (JSON.parse(row.webhooks) as Array<{ id: string; events: string }>).map((w) => ({
        id: w.id,
        events: JSON.parse(w.events) as string[],
      })),
    };
  }
}
