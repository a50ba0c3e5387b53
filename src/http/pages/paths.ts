// Where the booking pages link to and send guests: every page URL is built here, from the page
// paths of src/app/guest-links.ts (which the routes' patterns and the guests' links also use).
import { ownerHandle, type PageOwner, type PublicEventType } from '../../app/booking-pages.js';
import type { AppContext } from '../../app/context.js';
import { PAGE_PATHS } from '../../app/guest-links.js';
import { parseInstant } from '../../domain/instant.js';
import { isoDate } from './clocks.js';
import type { Locale } from './messages.js';

/**
 * What every link and form of a page carries on to the next: the language and, in a frame
 * (`?embed=1`), the embed session (a frame gets no cookies, so its session travels with it).
 */
export type Carried = Readonly<Record<string, string>>;

/** `path?query`, with what the page carries on. */
export function withQuery(path: string, carried: Carried, query: Record<string, string> = {}): string {
  return `${path}?${new URLSearchParams({ ...query, ...carried }).toString()}`;
}

/** A holder's page of event types, or a team's (contract §14). */
export function ownerPath(root: string, owner: PageOwner): string {
  const handle = ownerHandle(owner);
  return `${root}${owner.kind === 'holder' ? PAGE_PATHS.holder(handle) : PAGE_PATHS.team(handle)}`;
}

/** An event type's page, the picker; its steps (`/hold`, `/details`, `/book`, `/booked/…`) are under it. */
export function eventTypePath(root: string, owner: PageOwner, slug: string): string {
  const handle = ownerHandle(owner);
  return `${root}${owner.kind === 'holder' ? PAGE_PATHS.eventType(handle, slug) : PAGE_PATHS.teamEventType(handle, slug)}`;
}

/** A path of the event type's pages (`suffix` '' is the page itself) with its query and what the page carries on. */
export function pagePath(
  page: PublicEventType,
  root: string,
  carried: Carried,
  query: Record<string, string | undefined>,
  suffix = '',
): string {
  const defined = Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return withQuery(
    `${eventTypePath(root, page.owner, page.eventType.slug)}${suffix}`,
    carried,
    Object.fromEntries(defined),
  );
}

/** Back to the picker, on the day of `start` when it is an instant, telling the guest the time was taken. */
export function takenPath(
  page: PublicEventType,
  root: string,
  carried: Carried,
  zone: string,
  start: string | number | undefined,
): string {
  return pagePath(page, root, carried, {
    tz: zone,
    notice: 'taken',
    date: start === undefined ? undefined : dateIn(start, zone),
  });
}

/** The path of the manage page a token opens. */
export function manageTokenPath(context: AppContext, token: string): string {
  return `${context.links.basePath()}${PAGE_PATHS.manage(token)}`;
}

/** The path of a booking's manage page (its link, without the base URL's origin), in `locale`, with `query`. */
export function manageUrl(
  context: AppContext,
  bookingId: string,
  locale: Locale,
  query: Record<string, string> = {},
): string {
  return `${new URL(context.links.manage(bookingId)).pathname}?${new URLSearchParams({ ...query, lang: locale }).toString()}`;
}

/** The page at `url` (path and query, as requested) with its `lang` set to `locale`. */
export function pageInLanguage(root: string, url: string, locale: Locale): string {
  const parsed = new URL(url, 'http://page');
  parsed.searchParams.set('lang', locale);
  return `${root}${parsed.pathname}${parsed.search}`;
}

/** The local date of `start` (an instant, or a form's text of one) in `zone`; undefined when it is no instant. */
export function dateIn(start: string | number, zone: string): string | undefined {
  const parsed = typeof start === 'number' ? { ok: true as const, value: start } : parseInstant(start);
  return parsed.ok ? isoDate(parsed.value, zone) : undefined;
}
