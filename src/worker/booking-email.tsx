// A booking e-mail as it is sent (contract §16): plain text and HTML in the recipient's zone and
// language, with an iTIP part (RFC 5546/6047) written by ical-generator: REQUEST for a booking made
// or moved, CANCEL for one cancelled, its METHOD the MIME part's `method`. The HTML is rendered by
// Preact, as the pages are, so a title, name, answer or location can only ever be text; the
// iCalendar texts go through `written`, as the calendar files' do.
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { SendMailOptions } from 'nodemailer';
import { renderToString } from 'preact-render-to-string';
import { written } from '../app/ical-written.js';
import type { Booking, GuestLanguage } from '../domain/booking.js';
import { DateFormats } from '../domain/date-formats.js';
import type { Location } from '../domain/location.js';
import type { BookingEmailContent } from '../domain/notification.js';

export type { BookingEmailKind, EmailPerson } from '../domain/notification.js';

/** A message's content and what is made when it is sent. */
export interface BookingEmailInput extends BookingEmailContent {
  /** `EMAIL_FROM`: the sender, and the organizer when no host has an e-mail. */
  from: string;
  /** The guest's manage link (made when sent, never stored); for the guest's message only. */
  manageUrl?: string;
  /** Stable per message, so a message sent twice (at least once) is one message to the reader. */
  messageId: string;
}

/**
 * The message, as nodemailer sends it: `multipart/alternative` of text, HTML and the iTIP part; a
 * reminder is plain (text and HTML): it changes nothing in a calendar. Its days and times are
 * written with `formats` (the worker's, kept; made afresh without).
 */
export function bookingEmail(input: BookingEmailInput, formats = new DateFormats(2)): SendMailOptions {
  const words = WORDS[input.recipient.locale];
  const when = whenText(input.booking, input.recipient.zone, input.recipient.locale, formats);
  const hostNames = namesOf(
    input.hosts.map((host) => host.name),
    input.recipient.locale,
  );
  const subject = oneLine(`${words.subject[input.kind]}: ${input.title} ${words.with} ${hostNames}, ${when.date}`);
  const facts = factsOf(input, when, hostNames);
  const method = input.kind === 'cancelled' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST;
  return {
    from: input.from,
    to: { name: oneLine(input.recipient.name), address: input.recipient.email },
    subject,
    messageId: input.messageId,
    text: plainText(input, facts),
    html: `<!doctype html>${renderToString(<EmailBody input={input} facts={facts} />)}`,
    ...(input.kind === 'reminder' ? {} : { icalEvent: { method, content: invitation(input, method) } }),
  };
}

/** The lines of the message, by label, in the recipient's words. */
interface Fact {
  label: string;
  value: string;
  location?: Location;
}

function factsOf(input: BookingEmailInput, when: { date: string; time: string }, hostNames: string): Fact[] {
  const words = WORDS[input.recipient.locale];
  const { booking } = input;
  const facts: Fact[] = [
    { label: words.what, value: `${input.title} ${words.with} ${hostNames}` },
    { label: words.when, value: `${when.date}, ${when.time} (${input.recipient.zone})` },
  ];
  if (booking.location) facts.push({ label: words.where, value: booking.location.value, location: booking.location });
  const guests = input.seats ?? [{ name: booking.guestName, email: booking.guestEmail }];
  for (const guest of guests) facts.push({ label: words.guest, value: `${guest.name} <${guest.email}>` });
  if (input.recipient.role === 'host' && !input.seats) {
    if (booking.notes) facts.push({ label: words.notes, value: booking.notes });
    for (const [question, answer] of Object.entries(booking.answers))
      facts.push({ label: question, value: Array.isArray(answer) ? answer.join(', ') : String(answer) });
  }
  return facts;
}

function plainText(input: BookingEmailInput, facts: readonly Fact[]): string {
  const words = WORDS[input.recipient.locale];
  const lines = [
    words.lead[input.recipient.role][input.kind],
    '',
    ...facts.map((fact) => `${fact.label}: ${fact.value}`),
  ];
  if (input.manageUrl && input.kind !== 'cancelled') lines.push('', `${words.manage}: ${input.manageUrl}`);
  lines.push('', words.footer);
  return `${lines.join('\n')}\n`;
}

function EmailBody(props: { input: BookingEmailInput; facts: readonly Fact[] }) {
  const { input, facts } = props;
  const words = WORDS[input.recipient.locale];
  return (
    <html lang={input.recipient.locale}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{words.subject[input.kind]}</title>
      </head>
      <body style="margin:0;padding:0;background:#f4f4f5;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#18181b">
        <div style="max-width:560px;margin:0 auto;padding:24px 16px">
          <div style="background:#ffffff;border-radius:8px;padding:24px">
            <h1 style="font-size:20px;line-height:1.3;margin:0 0 16px">
              {words.lead[input.recipient.role][input.kind]}
            </h1>
            <table role="presentation" style="border-collapse:collapse;width:100%;font-size:15px;line-height:1.5">
              {facts.map((fact) => (
                <tr>
                  <th
                    scope="row"
                    style="text-align:left;vertical-align:top;padding:6px 12px 6px 0;color:#52525b;font-weight:600;white-space:nowrap"
                  >
                    {fact.label}
                  </th>
                  <td style="padding:6px 0;overflow-wrap:anywhere;white-space:pre-line">
                    {fact.location?.type === 'link' ? <a href={fact.location.value}>{fact.value}</a> : fact.value}
                  </td>
                </tr>
              ))}
            </table>
            {input.manageUrl && input.kind !== 'cancelled' && (
              <p style="margin:24px 0 0">
                <a
                  href={input.manageUrl}
                  style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:10px 16px;border-radius:6px"
                >
                  {words.manage}
                </a>
              </p>
            )}
          </div>
          <p style="font-size:13px;color:#71717a;margin:16px 0 0">{words.footer}</p>
        </div>
      </body>
    </html>
  );
}

/**
 * The iTIP part: one VEVENT under the appointment's UID and SEQUENCE, times in UTC, the organizer
 * (the first host with an e-mail, else the sender) and every attendee with an e-mail (a seated
 * occurrence's host message: every seat's guest).
 */
function invitation(input: BookingEmailInput, method: ICalCalendarMethod): string {
  const { booking } = input;
  const organizer = input.hosts.find((host) => host.email !== null);
  const fromAddress = addressOf(input.from);
  const calendar = ical({ prodId: { company: 'Slotwise', product: 'Slotwise', language: 'EN' }, method });
  const guests = input.seats ?? [{ name: booking.guestName, email: booking.guestEmail }];
  const attendees = [
    ...guests,
    ...input.hosts.flatMap((host) => (host.email === null ? [] : [{ name: host.name, email: host.email }])),
  ];
  calendar.createEvent({
    id: input.uid,
    sequence: input.sequence,
    stamp: new Date(booking.updatedAt),
    start: new Date(booking.start),
    end: new Date(booking.end),
    status: input.kind === 'cancelled' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    summary: written.value(`${input.title}: ${guests.length === 1 ? guests[0]!.name : `${guests.length} guests`}`),
    description: input.recipient.role === 'guest' && input.manageUrl ? written.value(input.manageUrl) : null,
    location: booking.location === null ? null : written.value(booking.location.value),
    url: booking.location?.type === 'link' ? new URL(booking.location.value).href : null,
    organizer: organizer
      ? { name: written.parameter(organizer.name), email: organizer.email! }
      : { name: written.parameter(fromAddress.name ?? 'Slotwise'), email: fromAddress.email },
    attendees: attendees.map((attendee) => ({
      name: written.parameter(attendee.name),
      email: attendee.email,
      role: ICalAttendeeRole.REQ,
      status: input.kind === 'cancelled' ? ICalAttendeeStatus.DECLINED : ICalAttendeeStatus.NEEDSACTION,
    })),
  });
  return calendar.toString();
}

/** `Acme <book@acme.example>` or `book@acme.example`, as `EMAIL_FROM` allows. */
function addressOf(from: string): { name: string | null; email: string } {
  const match = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(from);
  return match ? { name: match[1] || null, email: match[2]! } : { name: null, email: from.trim() };
}

/** A header's text: a line break in a name cannot start a header of its own. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\u0000-\u001f\u007f]+/g, ' ');
}

function namesOf(names: readonly string[], locale: GuestLanguage): string {
  return new Intl.ListFormat(locale, { type: 'conjunction' }).format(names);
}

function whenText(
  booking: Booking,
  zone: string,
  locale: GuestLanguage,
  formats: DateFormats,
): { date: string; time: string } {
  const date = formats.of('day', zone, locale).format(booking.start);
  const clock = formats.of('clock', zone, locale);
  return { date, time: `${clock.format(booking.start)}–${clock.format(booking.end)}` };
}

const WORDS = {
  en: {
    subject: { created: 'Confirmed', rescheduled: 'Moved', cancelled: 'Cancelled', reminder: 'Reminder' },
    lead: {
      guest: {
        created: 'Your booking is confirmed.',
        rescheduled: 'Your booking has moved to a new time.',
        cancelled: 'Your booking has been cancelled.',
        reminder: 'Your booking is coming up.',
      },
      host: {
        created: 'You have a new booking.',
        rescheduled: 'A booking has moved to a new time.',
        cancelled: 'A booking has been cancelled.',
        reminder: 'A booking is coming up.',
      },
    },
    with: 'with',
    what: 'What',
    when: 'When',
    where: 'Where',
    guest: 'Guest',
    notes: 'Notes',
    manage: 'See, move or cancel the booking',
    footer: 'Scheduling by Slotwise',
  },
  de: {
    subject: { created: 'Bestätigt', rescheduled: 'Verschoben', cancelled: 'Abgesagt', reminder: 'Erinnerung' },
    lead: {
      guest: {
        created: 'Ihre Buchung ist bestätigt.',
        rescheduled: 'Ihre Buchung wurde auf eine neue Zeit verschoben.',
        cancelled: 'Ihre Buchung wurde abgesagt.',
        reminder: 'Ihre Buchung steht bald an.',
      },
      host: {
        created: 'Sie haben eine neue Buchung.',
        rescheduled: 'Eine Buchung wurde auf eine neue Zeit verschoben.',
        cancelled: 'Eine Buchung wurde abgesagt.',
        reminder: 'Eine Buchung steht bald an.',
      },
    },
    with: 'mit',
    what: 'Was',
    when: 'Wann',
    where: 'Wo',
    guest: 'Gast',
    notes: 'Notizen',
    manage: 'Buchung ansehen, verschieben oder absagen',
    footer: 'Terminplanung mit Slotwise',
  },
} satisfies Record<GuestLanguage, unknown>;
