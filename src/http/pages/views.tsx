import { shownName, type MonthOfSlots, type PublicEventType, type PublicProfile } from '../../app/booking-pages.js';
import { MESSAGES, type Locale } from './messages.js';

export function HolderPage(props: { profile: PublicProfile; locale: Locale; root: string }) {
  const m = MESSAGES[props.locale];
  const { holder, eventTypes } = props.profile;
  return (
    <>
      <h1>{m.bookWith(shownName(holder))}</h1>
      <ul class="event-types">
        {eventTypes.map((eventType) => (
          <li key={eventType.id}>
            <a href={`${props.root}/book/${holder.handle}/${eventType.slug}`}>
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
  /** The chosen day (`YYYY-MM-DD`), one of `month.days`; null when the month has none. */
  day: string | null;
  /** Every zone the guest can choose from. */
  zones: readonly string[];
  locale: Locale;
  root: string;
}

/**
 * One event type's booking page: what it is, the month's days with free times in the guest's
 * zone (always named, and switchable without JavaScript), and the chosen day's times.
 */
export function EventTypePage(props: EventTypePageProps) {
  const m = MESSAGES[props.locale];
  const { holder, eventType } = props.page;
  const here = `${props.root}/book/${holder.handle}/${eventType.slug}`;
  const link = (query: Record<string, string>) =>
    `${here}?${new URLSearchParams({ ...query, tz: props.zone, lang: props.locale }).toString()}`;
  const monthName = monthTitle(props.month.month, props.locale);
  const dayTimes = props.day === null ? [] : (props.month.days.get(props.day) ?? []);
  return (
    <>
      <p class="back">
        <a href={`${props.root}/book/${holder.handle}?lang=${props.locale}`}>{m.allEventTypes}</a>
      </p>
      <h1>{eventType.title}</h1>
      <p class="meta">
        {m.withHolder(shownName(holder))} · {m.minutes(eventType.durationMinutes)}
      </p>
      {eventType.description && <p class="description">{eventType.description}</p>}

      <form class="zone" method="get" action={here}>
        <input type="hidden" name="month" value={props.month.month} />
        <input type="hidden" name="lang" value={props.locale} />
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
          <h2 id="times-heading">{m.timesOn(dayTitle(props.day, props.locale))}</h2>
          <ul>
            {dayTimes.map((start) => (
              <li>
                <time dateTime={new Date(start).toISOString()}>{timeOfDay(start, props.zone, props.locale)}</time>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** `January 2026` / `Januar 2026`. */
function monthTitle(month: string, locale: Locale): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    Date.UTC(year, number - 1, 1),
  );
}

/** `Monday, 5 January` / `Montag, 5. Januar`. */
function dayTitle(date: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    Date.parse(`${date}T00:00:00Z`),
  );
}

/** The start as the guest's clock shows it: `09:00`, `9:00 AM`, per locale. */
function timeOfDay(instant: number, zone: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: zone }).format(instant);
}

/** Monday first, as ISO 8601 weeks are. */
function weekdayNames(locale: Locale): Array<{ short: string; long: string }> {
  const monday = Date.UTC(2024, 0, 1);
  return Array.from({ length: 7 }, (_, i) => ({
    short: new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(monday + i * 86_400_000),
    long: new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(monday + i * 86_400_000),
  }));
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
