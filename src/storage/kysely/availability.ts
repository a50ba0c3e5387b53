import type { Availability } from '../../domain/availability.js';
import type { Instant } from '../../domain/instant.js';
import type { AvailabilityWrites, StoredAvailability } from '../../app/ports/store.js';
import { compiledOnce } from './compiled-once.js';
import { Table } from './table.js';

const availabilityOf = compiledOnce<{ holderId: string }>()((db, param) =>
  db.selectFrom('availabilities').selectAll().where('holder_id', '=', param('holderId')),
);

export class KyselyAvailability extends Table implements AvailabilityWrites {
  async get(holderId: string): Promise<StoredAvailability | undefined> {
    const [row] = await availabilityOf(this.db, this.engine, { holderId });
    if (!row) return undefined;
    const availability: Availability = {
      timeZone: row.time_zone,
      weekly: JSON.parse(row.weekly),
      overrides: JSON.parse(row.overrides),
    };
    return { availability, updatedAt: Number(row.updated_at) };
  }

  async put(holderId: string, availability: Availability, at: Instant): Promise<void> {
    this.scope.writes(holderId);
    const values = {
      time_zone: availability.timeZone,
      weekly: JSON.stringify(availability.weekly),
      overrides: JSON.stringify(availability.overrides),
      updated_at: at,
    };
    await this.db
      .insertInto('availabilities')
      .values({ holder_id: holderId, ...values })
      .onConflict((oc) => oc.column('holder_id').doUpdateSet(values))
      .execute();
  }
}
