import { shownName, type MonthOfSlots, type PublicEventType, type PublicProfile } from '../../app/booking-pages.js';
import type { Booking } from '../../domain/booking.js';
import type { Hold } from '../../domain/hold.js';
import type { Instant } from '../../domain/instant.js';
import type { Clock } from './clocks.js';
import { LOCALES, MESSAGES, type Locale } from './messages.js';

/**
 * What every link and form of a page carries on to the next: the language and, in a frame
 * (`?embed=1`), the embed session (a frame gets no cookies, so its session travels with it).
 */
export type Carried = Readonly<Record<string, string>>;

/** `path?query`, with what the page carries on. */
export function withQuery(path: string, carried: Carried, query: Record<string, string> = {}): string {
  return `${path}?${new URLSearchParams({ ...query, ...carried }).toString()}`;
}

/** The hidden fields that carry a page's state on through a form. */
function CarriedFields(props: { carried: Carried }) {
  return (
    <>
      {Object.entries(props.carried).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

export function HolderPage(props: { profile: PublicProfile; locale: Locale; root: string; carried: Carried }) {
  const m = MESSAGES[props.locale];
  const { holder, eventTypes } = props.profile;
  return (
    <>
      <h1>{m.bookWith(shownName(holder))}</h1>
      <ul class="event-types">
        {eventTypes.map((eventType) => (
          <li key={eventType.id}>
            <a href={withQuery(`${props.root}/book/${holder.handle}/${eventType.slug}`, props.carried)}>
              <span class="title">{eventType.title}</span>
              <span class="duration">{m.minutes(eventType.durationMinutes)}</span>
            </a>
            {eventType.description && <p class="description">{eventType.description}</p>}
          </li>
        ))}
      </ul>
    </>
  );
}

export function NotFoundPage(props: { locale: Locale }) {
  const m = MESSAGES[props.locale];
  return (
    <>
      <h1>{m.notFoundTitle}</h1>
      <p>{m.notFoundText}</p>
    </>
  );
}

export interface EventTypePageProps {
  page: PublicEventType;
  month: MonthOfSlots;
  /** The guest's zone (IANA), in which every time and day is shown. */
  zone: string;
  /** Times of day in that zone, as the guest's language writes them. */
  clock: Clock;
  /** Whether the guest (or the browser's script) chose the zone, or it is the holder's by default. */
  zoneChosen: boolean;
  /** The chosen day (`YYYY-MM-DD`), one of `month.days`; null when the month has none. */
  day: string | null;
  /** Every zone the guest can choose from. */
  zones: readonly string[];
  locale: Locale;
  root: string;
  carried: Carried;
  /** The CSRF token the time buttons' forms carry. */
  csrfToken: string;
  /** Why the guest is back on this page, when something went wrong. */
  notice: PageNotice | null;
  /** Where a picked time is sent: the hold of a new booking, or a booking's reschedule. */
  pickAction: string;
  /** The page's own address, for the zone form and the month and day links. */
  here: string;
}

/** What the picker tells a guest sent back to it: the time asked for is no longer free. */
export type PageNotice = 'taken';

/**
 * One event type's booking page: what it is, the month's days with free times in the guest's
 * zone (always named, and switchable without JavaScript), and the chosen day's times.
 */
export function EventTypePage(props: EventTypePageProps) {
  const m = MESSAGES[props.locale];
  const { holder, eventType } = props.page;
  const here = props.here;
  const link = (query: Record<string, string>) => withQuery(here, props.carried, { ...query, tz: props.zone });
  const monthName = monthTitle(props.month.month, props.locale);
  const timeOfDay = props.clock;
  const dayTimes = props.day === null ? [] : (props.month.days.get(props.day) ?? []);
  const chosenDay = props.day === null ? '' : dayTitle(props.day, props.locale);
  return (
    <>
      <p class="back">
        <a href={withQuery(`${props.root}/book/${holder.handle}`, props.carried)}>{m.allEventTypes}</a>
      </p>
      <h1>{eventType.title}</h1>
      <p class="meta">
        {m.withHolder(shownName(holder))} · {m.minutes(eventType.durationMinutes)}
      </p>
      {eventType.description && <p class="description">{eventType.description}</p>}
      {props.notice && <NoticeBox notice={props.notice} locale={props.locale} />}

      <form class="zone" method="get" action={here} data-zone-chosen={props.zoneChosen ? 'true' : 'false'}>
        <input type="hidden" name="month" value={props.month.month} />
        <CarriedFields carried={props.carried} />
        <label for="tz">
          {m.timesShownIn} <strong>{props.zone}</strong>
        </label>
        <select id="tz" name="tz" aria-label={m.timeZone}>
          {props.zones.map((zone) => (
            <option value={zone} selected={zone === props.zone}>
              {zone}
            </option>
          ))}
        </select>
        <button type="submit">{m.changeTimeZone}</button>
      </form>

      <nav class="months" aria-label={monthName}>
        {props.month.previous ? (
          <a href={link({ month: props.month.previous })} rel="prev">
            ← {m.previousMonth}
          </a>
        ) : (
          <span />
        )}
        <h2>{monthName}</h2>
        {props.month.next ? (
          <a href={link({ month: props.month.next })} rel="next">
            {m.nextMonth} →
          </a>
        ) : (
          <span />
        )}
      </nav>

      <table class="calendar">
        <caption>{m.calendarOf(monthName)}</caption>
        <thead>
          <tr>
            {weekdayNames(props.locale).map((name) => (
              <th scope="col" abbr={name.long}>
                {name.short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeksOf(props.month.month).map((week) => (
            <tr>
              {week.map((date) => {
                if (date === null) return <td />;
                const times = props.month.days.get(date)?.length ?? 0;
                const number = Number(date.slice(8));
                if (times === 0) return <td class="none">{number}</td>;
                return (
                  <td class={date === props.day ? 'free chosen' : 'free'}>
                    <a
                      href={link({ month: props.month.month, date })}
                      aria-label={`${dayTitle(date, props.locale)}: ${m.timesCount(times)}`}
                      aria-current={date === props.day ? 'date' : undefined}
                    >
                      {number}
                    </a>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>

      {props.day === null ? (
        <p class="empty">{m.noTimesThisMonth}</p>
      ) : (
        <section class="times" aria-labelledby="times-heading">
          <h2 id="times-heading">{m.timesOn(chosenDay)}</h2>
          <ul>
            {dayTimes.map((start) => {
              const shown = timeOfDay(start);
              return (
                <li>
                  {/* Picking a time holds it while the guest fills in the form. */}
                  <form method="post" action={props.pickAction}>
                    {props.csrfToken && <input type="hidden" name="_csrf" value={props.csrfToken} />}
                    <input type="hidden" name="start" value={new Date(start).toISOString()} />
                    <input type="hidden" name="tz" value={props.zone} />
                    <CarriedFields carried={props.carried} />
                    <button type="submit" aria-label={m.pickTime(`${chosenDay}, ${shown}`)}>
                      <time dateTime={new Date(start).toISOString()}>{shown}</time>
                    </button>
                  </form>
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </>
  );
}

/**
 * The zone-free formats of each language, made once when the module loads and never changed:
 * making an `Intl.DateTimeFormat` costs tens of microseconds and a month's page shows dozens of
 * dates (made per date, they were most of a page's cost in `npm run bench`).
 */
const FORMATS: Readonly<
  Record<
    Locale,
    { month: Intl.DateTimeFormat; day: Intl.DateTimeFormat; weekdays: ReadonlyArray<{ short: string; long: string }> }
  >
> = Object.freeze(
  Object.fromEntries(
    LOCALES.map((locale) => {
      const monday = Date.UTC(2024, 0, 1);
      const short = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
      const long = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
      return [
        locale,
        {
          month: new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }),
          day: new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }),
          // Monday first, as ISO 8601 weeks are.
          weekdays: Object.freeze(
            Array.from({ length: 7 }, (_, i) => ({
              short: short.format(monday + i * 86_400_000),
              long: long.format(monday + i * 86_400_000),
            })),
          ),
        },
      ];
    }),
  ) as Record<
    Locale,
    { month: Intl.DateTimeFormat; day: Intl.DateTimeFormat; weekdays: ReadonlyArray<{ short: string; long: string }> }
  >,
);

/** `January 2026` / `Januar 2026`. */
function monthTitle(month: string, locale: Locale): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return FORMATS[locale].month.format(Date.UTC(year, number - 1, 1));
}

/** `Monday, 5 January` / `Montag, 5. Januar`. */
function dayTitle(date: string, locale: Locale): string {
  return FORMATS[locale].day.format(Date.parse(`${date}T00:00:00Z`));
}

function weekdayNames(locale: Locale): ReadonlyArray<{ short: string; long: string }> {
  return FORMATS[locale].weekdays;
}

/** The month's dates (`YYYY-MM-DD`) in weeks from Monday, with null where a week runs outside it. */
function weeksOf(month: string): Array<Array<string | null>> {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const first = Date.UTC(year, number - 1, 1);
  const length = new Date(Date.UTC(year, number, 0)).getUTCDate();
  const lead = (new Date(first).getUTCDay() + 6) % 7;
  const cells: Array<string | null> = [
    ...Array<null>(lead).fill(null),
    ...Array.from({ length }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`),
  ];
  while (cells.length % 7 !== 0) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
}

function NoticeBox(props: { notice: PageNotice; locale: Locale }) {
  const m = MESSAGES[props.locale];
  return (
    <p class="notice" role="alert">
      {m.timeTaken}
    </p>
  );
}

/** A field of the details form and what is wrong with it, if anything. */
export interface FormField {
  value: string | string[];
  error: string | null;
}

export interface DetailsPageProps {
  page: PublicEventType;
  /** The time to book. */
  start: Instant;
  /** The session's live hold of it; null when the time is not held for the guest (contract §10). */
  hold: Hold | null;
  /** Why it is not held: a hold asked for ran out, or none could be given. */
  lapsed: boolean;
  zone: string;
  clock: Clock;
  locale: Locale;
  root: string;
  carried: Carried;
  csrfToken: string;
  /** What the guest sent last time, by field name (`name`, `email`, `notes`, `q_<question id>`). */
  fields: Record<string, FormField>;
  /** True when the form came back with errors. */
  invalid: boolean;
}

/**
 * The form for the guest's details, for a time held for the guest or, when no hold could be given
 * or it ran out, a time that was free when the form was shown; errors next to their fields.
 */
export function DetailsPage(props: DetailsPageProps) {
  const m = MESSAGES[props.locale];
  const { holder, eventType } = props.page;
  const here = `${props.root}/book/${holder.handle}/${eventType.slug}`;
  const field = (name: string): FormField => props.fields[name] ?? { value: '', error: null };
  const text = (name: string) => {
    const value = field(name).value;
    return typeof value === 'string' ? value : '';
  };
  const errorOf = (name: string) => field(name).error;
  const describedBy = (name: string) => (errorOf(name) ? `${name}-error` : undefined);
  const errorText = (name: string) =>
    errorOf(name) ? (
      <p class="field-error" id={`${name}-error`}>
        {errorOf(name)}
      </p>
    ) : null;
  /** The guest's own required fields: name and e-mail, each with its label and error. */
  const guestField = (
    name: 'name' | 'email',
    label: string,
    attributes: { type?: 'email'; autocomplete: string; maxLength: number },
  ) => (
    <>
      <label for={name}>{label}</label>
      <input
        id={name}
        name={name}
        // No type is text; Preact's types tell each type's attributes apart, so one of them stands for both.
        type={attributes.type as 'text' | undefined}
        autocomplete={attributes.autocomplete}
        maxLength={attributes.maxLength}
        required
        value={text(name)}
        aria-invalid={errorOf(name) ? 'true' : undefined}
        aria-describedby={describedBy(name)}
      />
      {errorText(name)}
    </>
  );
  const day = isoDate(props.start, props.zone);
  const timeOfDay = props.clock;
  return (
    <>
      <p class="back">
        <a href={withQuery(here, props.carried, { tz: props.zone, date: day })}>{m.changeTime}</a>
      </p>
      <h1>{m.yourDetails}</h1>
      <dl class="summary">
        <dt>{m.what}</dt>
        <dd>
          {eventType.title} · {m.withHolder(shownName(holder))} · {m.minutes(eventType.durationMinutes)}
        </dd>
        <dt>{m.when}</dt>
        <dd>
          {dayTitle(day, props.locale)}, {timeOfDay(props.start)} ({props.zone})
        </dd>
      </dl>
      <p class="held">
        {props.hold ? m.heldUntil(timeOfDay(props.hold.expiresAt)) : props.lapsed ? m.holdRanOut : m.notHeld}
      </p>
      {props.invalid && (
        <p class="notice" role="alert">
          {m.fixErrors}
        </p>
      )}
      <form method="post" action={`${here}/book`} class="details" novalidate>
        {props.csrfToken && <input type="hidden" name="_csrf" value={props.csrfToken} />}
        <input type="hidden" name="start" value={new Date(props.start).toISOString()} />
        {props.hold && <input type="hidden" name="hold" value={props.hold.id} />}
        <input type="hidden" name="tz" value={props.zone} />
        <CarriedFields carried={props.carried} />
        {guestField('name', m.name, { autocomplete: 'name', maxLength: 200 })}
        {guestField('email', m.email, { type: 'email', autocomplete: 'email', maxLength: 320 })}
        {eventType.questions.map((question) => {
          const name = `q_${question.id}`;
          const label = (
            <>
              {question.label} {!question.required && <span class="optional">{m.optional}</span>}
            </>
          );
          const invalid = errorOf(name) ? 'true' : undefined;
          if (question.type === 'checkbox') {
            return (
              <div class="check">
                <input
                  id={name}
                  name={name}
                  type="checkbox"
                  checked={text(name) === 'on'}
                  aria-invalid={invalid}
                  aria-describedby={describedBy(name)}
                />
                <label for={name}>{label}</label>
                {errorText(name)}
              </div>
            );
          }
          if (question.type === 'select' || question.type === 'multiselect') {
            const chosen = new Set([field(name).value].flat());
            const type = question.type === 'select' ? 'radio' : 'checkbox';
            return (
              <fieldset aria-describedby={describedBy(name)}>
                <legend>{label}</legend>
                {question.options!.map((option, i) => (
                  <div class="check">
                    <input
                      id={`${name}-${i}`}
                      name={name}
                      type={type}
                      value={option}
                      checked={chosen.has(option)}
                      aria-invalid={invalid}
                    />
                    <label for={`${name}-${i}`}>{option}</label>
                  </div>
                ))}
                {errorText(name)}
              </fieldset>
            );
          }
          return (
            <>
              <label for={name}>{label}</label>
              {question.type === 'textarea' ? (
                <textarea id={name} name={name} rows={4} aria-invalid={invalid} aria-describedby={describedBy(name)}>
                  {text(name)}
                </textarea>
              ) : question.type === 'number' ? (
                <input
                  id={name}
                  name={name}
                  type="number"
                  step="any"
                  value={text(name)}
                  aria-invalid={invalid}
                  aria-describedby={describedBy(name)}
                />
              ) : (
                <input
                  id={name}
                  name={name}
                  // text, email or tel: the same attributes (Preact's types tell the three apart).
                  type={(question.type === 'phone' ? 'tel' : question.type) as 'text'}
                  value={text(name)}
                  aria-invalid={invalid}
                  aria-describedby={describedBy(name)}
                />
              )}
              {errorText(name)}
            </>
          );
        })}
        <label for="notes">
          {m.notes} <span class="optional">{m.optional}</span>
        </label>
        <textarea
          id="notes"
          name="notes"
          rows={3}
          maxLength={2000}
          aria-invalid={errorOf('notes') ? 'true' : undefined}
          aria-describedby={describedBy('notes')}
        >
          {text('notes')}
        </textarea>
        {errorText('notes')}
        <button type="submit" class="primary">
          {m.book}
        </button>
      </form>
    </>
  );
}

/** What, when (in the guest's zone) and who of a booking. */
function BookingSummary(props: BookingPageProps) {
  const m = MESSAGES[props.locale];
  const { booking } = props;
  const timeOfDay = props.clock;
  return (
    <dl class="summary">
      <dt>{m.what}</dt>
      <dd>
        {props.title} · {m.withHolder(props.holderName)}
      </dd>
      <dt>{m.when}</dt>
      <dd>
        {dayTitle(isoDate(booking.start, props.zone), props.locale)}, {timeOfDay(booking.start)}–
        {timeOfDay(booking.end)} ({props.zone})
      </dd>
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
  holderName: string;
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

/** The local date (`YYYY-MM-DD`) of an instant in a zone. */
export function isoDate(instant: number, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
}
