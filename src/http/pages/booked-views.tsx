// A made booking as the guest sees it: the manage link's page, and a framed page's confirmation.
import type { Booking } from '../../domain/booking.js';
import { isoDate, type Clock } from './clocks.js';
import { MESSAGES, namesList, type Locale } from './messages.js';
import { dayTitle, MeetingPlace } from './views.js';

/** What, when (in the guest's zone) and who of a booking. */
function BookingSummary(props: BookingPageProps) {
  const m = MESSAGES[props.locale];
  const { booking } = props;
  const timeOfDay = props.clock;
  return (
    <dl class="summary">
      <dt>{m.what}</dt>
      <dd>
        {props.title} · {m.withHolder(namesList(props.locale, props.hostNames, 'and'))}
      </dd>
      <dt>{m.when}</dt>
      <dd>
        {dayTitle(isoDate(booking.start, props.zone), props.locale)}, {timeOfDay(booking.start)}–
        {timeOfDay(booking.end)} ({props.zone})
      </dd>
      {booking.location && (
        <>
          <dt>{m.where}</dt>
          <dd>
            <MeetingPlace location={booking.location} />
          </dd>
        </>
      )}
      <dt>{m.who}</dt>
      <dd>
        {booking.guestName} ({booking.guestEmail})
      </dd>
    </dl>
  );
}

export interface BookingPageProps {
  booking: Booking;
  title: string;
  /** Who attends: the holder, or a team booking's hosts, in its `hostIds` order (contract §14). */
  hostNames: readonly string[];
  icsUrl: string;
  zone: string;
  clock: Clock;
  locale: Locale;
}

/** The guest's view of a booking (the manage link's page), with its cancel and reschedule while it may change. */
export function BookingPage(
  props: BookingPageProps & {
    justBooked: boolean;
    /** The manage page's own path; its actions are under it. */
    here: string;
    /** Whether the guest may still cancel or move it: confirmed and not yet started. */
    changeable: boolean;
    csrfToken: string;
  },
) {
  const m = MESSAGES[props.locale];
  const { booking } = props;
  return (
    <>
      <h1>{props.justBooked ? m.booked : props.title}</h1>
      {booking.status === 'cancelled' && <p class="notice">{m.bookingCancelled}</p>}
      {booking.status === 'rescheduled' && <p class="notice">{m.bookingMoved}</p>}
      <BookingSummary {...props} />
      {booking.status === 'confirmed' && (
        <p>
          <a href={props.icsUrl} download="booking.ics">
            {m.addToCalendar}
          </a>
        </p>
      )}
      {props.changeable && (
        <>
          <p>
            <a
              href={`${props.here}/reschedule?${new URLSearchParams({ tz: props.zone, lang: props.locale }).toString()}`}
            >
              {m.moveBooking}
            </a>
          </p>
          <form method="post" action={`${props.here}/cancel`} class="details">
            {props.csrfToken && <input type="hidden" name="_csrf" value={props.csrfToken} />}
            <input type="hidden" name="lang" value={props.locale} />
            <label for="reason">
              {m.cancelReason} <span class="optional">{m.optional}</span>
            </label>
            <textarea id="reason" name="reason" rows={2} maxLength={2000} />
            <button type="submit">{m.cancelBooking}</button>
          </form>
        </>
      )}
      <p class="keep">{m.keepLink}</p>
    </>
  );
}

/**
 * The confirmation an embedded booking page shows in its frame. The manage page can never be
 * framed (a framed cancel button could be clicked through a disguise), so its link opens outside
 * the frame; this page itself acts on nothing.
 */
export function EmbeddedConfirmation(props: BookingPageProps & { manageUrl: string }) {
  const m = MESSAGES[props.locale];
  return (
    <>
      <h1>{m.booked}</h1>
      <BookingSummary {...props} />
      <p>
        <a href={props.icsUrl} download="booking.ics">
          {m.addToCalendar}
        </a>
      </p>
      <p>
        <a href={props.manageUrl} target="_blank" rel="noopener noreferrer">
          {m.openBooking}
        </a>
      </p>
      <p class="keep">{m.keepManageLink}</p>
    </>
  );
}
