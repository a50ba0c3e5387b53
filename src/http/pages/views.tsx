// The booking flow's views: a holder's event types, an event type's month of free times, the
// page that is not there. The details form is in details-view.tsx, a made booking in booked-views.tsx.
import {
  ownerName,
  shownName,
  type MonthOfSlots,
  type PublicEventType,
  type PublicProfile,
} from '../../app/booking-pages.js';
import type { Location } from '../../domain/location.js';
import type { Clock } from './clocks.js';
import { LOCALES, MESSAGES, namesList, type Locale } from './messages.js';
import { eventTypePath, ownerPath, withQuery, type Carried } from './paths.js';

/** The hidden fields that carry a page's state on through a form. */
export function CarriedFields(props: { carried: Carried }) {
  return (
    <>
      {Object.entries(props.carried).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/** A holder's or a team's page: its public event types. */
export function OwnerPage(props: { profile: PublicProfile; locale: Locale; root: string; carried: Carried }) {
  const m = MESSAGES[props.locale];
  const { owner, eventTypes } = props.profile;
  return (
    <>
      <h1>{m.bookWith(ownerName(owner))}</h1>
      <ul class="event-types">
        {eventTypes.map((eventType) => (
          <li key={eventType.id}>
            <a href={withQuery(eventTypePath(props.root, owner, eventType.slug), props.carried)}>
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

/**
 * Who the guest books with: the holder, every host of a collective type, or a round-robin type's
 * fixed hosts and one of the others (the service chooses, contract §14).
 */
export function attendees(page: PublicEventType, locale: Locale): string {
  const m = MESSAGES[locale];
  const { eventType, hosts } = page;
  const names = hosts.map(shownName);
  if (eventType.holderId !== null || eventType.assignment === 'collective')
    return m.withHolder(namesList(locale, names, 'and'));
  const fixed = names.filter((_, index) => eventType.hosts[index]!.fixed);
  const chosen = namesList(
    locale,
    names.filter((_, index) => !eventType.hosts[index]!.fixed),
    'or',
  );
  return fixed.length === 0 ? m.withHolder(chosen) : m.withFixedAndOneOf(namesList(locale, fixed, 'and'), chosen);
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
  const { owner, eventType } = props.page;
  const here = props.here;
  const link = (query: Record<string, string>) => withQuery(here, props.carried, { ...query, tz: props.zone });
  const monthName = monthTitle(props.month.month, props.locale);
  const timeOfDay = props.clock;
  const dayTimes = props.day === null ? [] : (props.month.days.get(props.day) ?? []);
  const chosenDay = props.day === null ? '' : dayTitle(props.day, props.locale);
  return (
    <>
      <p class="back">
        <a href={withQuery(ownerPath(props.root, owner), props.carried)}>{m.allEventTypes}</a>
      </p>
      <h1>{eventType.title}</h1>
      <p class="meta">
        {attendees(props.page, props.locale)} · {m.minutes(eventType.durationMinutes)}
      </p>
      {eventType.description && <p class="description">{eventType.description}</p>}
      {eventType.location && (
        <p class="location">
          {m.where}: <MeetingPlace location={eventType.location} />
        </p>
      )}
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
              const seats = props.month.seatsLeft?.get(start);
              // The name says what the button shows (axe: label-content-name-mismatch).
              const label = seats === undefined ? shown : `${shown} ${m.seatsLeft(seats)}`;
              return (
                <li>
                  {/* Picking a time holds it while the guest fills in the form. */}
                  <form method="post" action={props.pickAction}>
                    {props.csrfToken && <input type="hidden" name="_csrf" value={props.csrfToken} />}
                    <input type="hidden" name="start" value={new Date(start).toISOString()} />
                    <input type="hidden" name="tz" value={props.zone} />
                    <CarriedFields carried={props.carried} />
                    <button type="submit" aria-label={m.pickTime(`${chosenDay}, ${label}`)}>
                      <time dateTime={new Date(start).toISOString()}>{shown}</time>
                      {seats !== undefined && (
                        <>
                          {' '}
                          <span class="seats">{m.seatsLeft(seats)}</span>
                        </>
                      )}
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
export function dayTitle(date: string, locale: Locale): string {
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

/**
 * Where a meeting takes place (contract §16), as text; a link (https, checked when set) opens
 * outside the page, a phone number dials.
 */
export function MeetingPlace(props: { location: Location }) {
  const { type, value } = props.location;
  if (type === 'link')
    return (
      <a href={value} target="_blank" rel="noopener noreferrer">
        {value}
      </a>
    );
  if (type === 'phone') return <a href={`tel:${value.replace(/[^+0-9]/g, '')}`}>{value}</a>;
  return <span class="place">{value}</span>;
}
