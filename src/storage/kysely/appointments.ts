import { sql } from 'kysely';
import type { Booking } from '../../domain/booking.js';
import type { AppointmentReads, Reach } from '../../app/ports/store.js';
import { reaches } from './bookings.js';
import { HELD, toBooking } from './rows.js';
import { Table } from './table.js';

/** A calendar source names at most this many appointments in one statement (`hostedBy`'s `in` list). */
const IDS_PER_STATEMENT = 500;

/** The appointments bookings form (contract §16), found by `bookings_by_appointment` (migration 0022). */
export class KyselyAppointments extends Table implements AppointmentReads {
  async latest(reach: Reach, appointmentId: string): Promise<Booking | undefined> {
    const row = await this.db
      .selectFrom('bookings')
      .selectAll()
      .where('appointment_id', '=', appointmentId)
      .where('status', '<>', sql.lit(HELD))
      .orderBy('appointment_moves', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) return undefined;
    const booking = toBooking(row);
    return reaches(reach, row, booking.hostIds) ? booking : undefined;
  }

  async hostedBy(holderId: string, appointmentIds: readonly string[]): Promise<Set<string>> {
    const hosted = new Set<string>();
    for (let at = 0; at < appointmentIds.length; at += IDS_PER_STATEMENT) {
      const rows = await this.db
        .selectFrom('bookings')
        .select(['appointment_id', 'holder_id', 'host_ids'])
        .where('appointment_id', 'in', appointmentIds.slice(at, at + IDS_PER_STATEMENT))
        .where('status', '<>', sql.lit(HELD))
        .execute();
      for (const row of rows) {
        if (row.holder_id === holderId || (JSON.parse(row.host_ids) as string[]).includes(holderId))
          hosted.add(row.appointment_id);
      }
    }
    return hosted;
  }
}
