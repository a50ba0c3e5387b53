import { sql } from 'kysely';
import { occurrenceOfId, type OccurrenceRef } from '../../domain/appointment.js';
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
    const occurrences = new Map<string, string[]>();
    const appointments: string[] = [];
    for (const id of appointmentIds) {
      const occurrence = occurrenceOfId(id);
      if (!occurrence) appointments.push(id);
      else occurrences.set(occurrence.eventTypeId, [...(occurrences.get(occurrence.eventTypeId) ?? []), id]);
    }
    for (let at = 0; at < appointments.length; at += IDS_PER_STATEMENT) {
      const rows = await this.db
        .selectFrom('bookings')
        .select(['appointment_id', 'holder_id', 'host_ids'])
        .where('appointment_id', 'in', appointments.slice(at, at + IDS_PER_STATEMENT))
        .where('status', '<>', sql.lit(HELD))
        .execute();
      for (const row of rows) {
        if (row.holder_id === holderId || (JSON.parse(row.host_ids) as string[]).includes(holderId))
          hosted.add(row.appointment_id);
      }
    }
    // An occurrence's UID is the holder's when its event type is: the type's own, or a team type it hosts.
    const types = [...occurrences.keys()];
    for (let at = 0; at < types.length; at += IDS_PER_STATEMENT) {
      const rows = await this.db
        .selectFrom('event_types as et')
        .select('et.id')
        .where('et.id', 'in', types.slice(at, at + IDS_PER_STATEMENT))
        .where((eb) =>
          eb.or([
            eb('et.holder_id', '=', holderId),
            eb.exists(
              eb
                .selectFrom('event_type_hosts as eh')
                .select(sql.lit(1).as('one'))
                .whereRef('eh.event_type_id', '=', 'et.id')
                .where('eh.holder_id', '=', holderId),
            ),
          ]),
        )
        .execute();
      for (const row of rows) for (const id of occurrences.get(row.id) ?? []) hosted.add(id);
    }
    return hosted;
  }

  async seatsOf(holderId: string, { eventTypeId, start }: OccurrenceRef): Promise<Booking[]> {
    // A holder's own seats through `bookings_by_start`, a team type's through `team_booking_hosts_by_holder`.
    const own = await this.db
      .selectFrom('bookings')
      .selectAll()
      .where('holder_id', '=', holderId)
      .where('start_at', '=', start)
      .where('status', '<>', sql.lit(HELD))
      .where('event_type_id', '=', eventTypeId)
      .execute();
    const ofTeam = await this.db
      .selectFrom('team_booking_hosts as t')
      .innerJoin('bookings', 'bookings.id', 't.booking_id')
      .selectAll('bookings')
      .where('t.holder_id', '=', holderId)
      .where('t.start_at', '=', start)
      .where('t.event_type_id', '=', eventTypeId)
      .where('bookings.status', '<>', sql.lit(HELD))
      .execute();
    return [...own, ...ofTeam]
      .map(toBooking)
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}
