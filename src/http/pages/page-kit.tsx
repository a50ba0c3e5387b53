// What the booking and manage routes share to answer: the page's frame, the HTML answer, the
// pages every route may end on (not found, too many requests), the picker and the details form.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { monthOfSlots, ownerName, type PublicEventType } from '../../app/booking-pages.js';
import type { AppContext } from '../../app/context.js';
import { DomainError } from '../../domain/errors.js';
import { canonicalTimeZone } from '../../domain/zone.js';
import type { ClockFormats } from './clocks.js';
import { DetailsPage, type DetailsPageProps } from './details-view.js';
import { one, type Query } from './form.js';
import { renderPage, type EmbedFrame, type PageFrame } from './layout.js';
import { MESSAGES, type Locale } from './messages.js';
import { pageInLanguage } from './paths.js';
import { carriedBy, csrfTokenFor, type PageSecurity, type Visit } from './session.js';
import { EventTypePage, NotFoundPage, type PageNotice } from './views.js';

/** What the routes answer with besides the request: the use cases, the guests' clocks, who may frame the pages. */
export interface PageKit {
  context: AppContext;
  clocks: ClockFormats;
  /** `PUBLIC_EMBED_ORIGINS`: who may frame the booking pages and hear of a booking made in them. */
  embedOrigins: readonly string[];
}

/** Registers one flow's routes in the pages' scope, with the security headers of its pages (`pageSecurity`). */
export type PageRoutes = (pages: FastifyInstance, kit: PageKit, security: { helmet: PageSecurity }) => void;

/** The frame of a page: framed pages name whom they may tell; GETs link to themselves in each language. */
export function frameOf(
  kit: PageKit,
  visit: Visit,
  title: string,
  request?: FastifyRequest,
  message?: EmbedFrame['message'],
): PageFrame {
  const inLanguage = request && ((locale: Locale) => pageInLanguage(visit.root, request.url, locale));
  return {
    locale: visit.locale,
    root: visit.root,
    title,
    ...(inLanguage ? { inLanguage } : {}),
    embed: visit.embedSession === null ? null : { origins: kit.embedOrigins, ...(message ? { message } : {}) },
  };
}

export function html(reply: FastifyReply, locale: Locale, page: string, status = 200) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-language', locale)
    .header('vary', 'accept-language')
    .send(page);
}

export function tooManyPage(locale: Locale, root: string): string {
  const m = MESSAGES[locale];
  return renderPage(
    { locale, root, title: m.tooManyTitle },
    <>
      <h1>{m.tooManyTitle}</h1>
      <p>{m.tooManyText}</p>
    </>,
  );
}

/** Every page that is not there looks the same: an unknown handle, nothing public, an unknown or private event type. */
export function notFoundPage(locale: Locale, root: string): string {
  return renderPage({ locale, root, title: MESSAGES[locale].notFoundTitle }, <NotFoundPage locale={locale} />);
}

/** Zones a guest can pick: the runtime's IANA list (with UTC, which some builds leave out). */
const ZONES: readonly string[] = Object.freeze([
  'UTC',
  ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC'),
]);
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const NOTICES: readonly PageNotice[] = ['taken'];

/** The guest's zone: the one asked for when it is one, else the event type's (its schedule's). */
export function zoneOf(asked: string | undefined, page: PublicEventType): string {
  return (asked !== undefined && canonicalTimeZone(asked)) || page.zone;
}

/** The month-and-times picker of an event type: a new booking's, or a booking's new time. */
export async function picker(
  kit: PageKit,
  request: FastifyRequest<{ Querystring: Query }>,
  reply: FastifyReply,
  page: PublicEventType,
  visit: Visit,
  targets: { here: string; pickAction: string; moving?: string },
) {
  const query = request.query;
  const zone = zoneOf(one(query.tz), page);
  const month = one(query.month);
  const shown = await monthOfSlots(
    kit.context,
    page,
    zone,
    month !== undefined && MONTH.test(month) ? month : undefined,
    targets.moving,
  );
  const date = one(query.date);
  const day = date !== undefined && shown.days.has(date) ? date : ([...shown.days.keys()].sort()[0] ?? null);
  const notice = one(query.notice);
  return html(
    reply,
    visit.locale,
    renderPage(
      frameOf(kit, visit, `${page.eventType.title} · ${ownerName(page.owner)}`, request),
      <EventTypePage
        page={page}
        month={shown}
        zone={zone}
        clock={kit.clocks.of(zone, visit.locale)}
        zoneChosen={one(query.tz) !== undefined}
        day={day}
        zones={ZONES.includes(zone) ? ZONES : [zone, ...ZONES]}
        locale={visit.locale}
        root={visit.root}
        carried={carriedBy(visit)}
        csrfToken={csrfTokenFor(visit, reply)}
        notice={NOTICES.find((n) => n === notice) ?? null}
        here={targets.here}
        pickAction={targets.pickAction}
      />,
    ),
  );
}

/** The details form: for a time, held or not, and what the guest sent with each field's problem. */
export interface DetailsPageRequest {
  page: PublicEventType;
  zone: string;
  visit: Visit;
  /** The GET that shows the form (for its language links); none when a sent form comes back. */
  request?: FastifyRequest;
  form: Pick<DetailsPageProps, 'start' | 'hold' | 'lapsed' | 'fields' | 'invalid'>;
}

export function detailsPage(kit: PageKit, reply: FastifyReply, details: DetailsPageRequest): string {
  const { page, zone, visit, request, form } = details;
  return renderPage(
    frameOf(kit, visit, `${MESSAGES[visit.locale].yourDetails} · ${page.eventType.title}`, request),
    <DetailsPage
      {...form}
      page={page}
      zone={zone}
      clock={kit.clocks.of(zone, visit.locale)}
      locale={visit.locale}
      root={visit.root}
      carried={carriedBy(visit)}
      csrfToken={csrfTokenFor(visit, reply)}
    />,
  );
}

/** Whether a booking or hold failed because its time is not (or no longer) bookable. */
export function isNotBookable(error: unknown): boolean {
  // A start that is no instant at all (a form altered by hand) is a time the picker never offered.
  return (
    error instanceof DomainError &&
    (error.code === 'slot-unavailable' ||
      (error.code === 'invalid-request' && error.errors.some((e) => e.field === 'start')))
  );
}
