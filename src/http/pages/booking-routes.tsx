// The booking flow of contract §10: a holder's page, an event type's picker, the picked time held
// for the browser session, the guest's details, the booking, and in a frame its confirmation.
// The same flow serves a team's pages (contract §14) under `/team/{accountHandle}`. Each route
// reads the request, calls a use case and renders.
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  bookOnPage,
  freeOnPage,
  guestBooking,
  holdOnPage,
  ownerHandle,
  ownerName,
  pageHold,
  publicEventType,
  publicProfile,
  publicTeamEventType,
  publicTeamProfile,
  shownName,
  type PageOwner,
  type PublicEventType,
  type PublicProfile,
} from '../../app/booking-pages.js';
import type { AppContext } from '../../app/context.js';
import { PAGE_PATHS } from '../../app/guest-links.js';
import { DomainError, type FieldError } from '../../domain/errors.js';
import { parseInstant } from '../../domain/instant.js';
import { answerErrors } from '../../domain/questions.js';
import { canonicalTimeZone } from '../../domain/zone.js';
import { clientOf } from '../client-address.js';
import { EmbeddedConfirmation } from './booked-views.js';
import {
  answersOf,
  fieldsWithErrors,
  guestDetails,
  guestErrors,
  one,
  type Form,
  type FormError,
  type Query,
} from './form.js';
import { renderPage } from './layout.js';
import { MESSAGES } from './messages.js';
import {
  detailsPage,
  frameOf,
  html,
  isNotBookable,
  notFoundPage,
  picker,
  zoneOf,
  type DetailsPageRequest,
  type PageKit,
  type PageRoutes,
} from './page-kit.js';
import { eventTypePath, manageUrl, pagePath, takenPath } from './paths.js';
import { bookingFormGuard, carriedBy, sessionOf, visitOf } from './session.js';
import { OwnerPage } from './views.js';

/** How long an embedded page's confirmation opens after the booking (the guest keeps the manage link). */
const CONFIRMATION_MS = 60 * 60 * 1000;

type PageRequest = FastifyRequest<{ Params: { handle: string; slug: string }; Querystring: Query; Body: Form }>;

/** Where one kind of owner's pages live, and how its page and an event type's are found at a handle. */
interface OwnerPages {
  kind: PageOwner['kind'];
  list: string;
  eventType: string;
  profile(context: AppContext, handle: string): Promise<PublicProfile | undefined>;
  find(context: AppContext, handle: string, slug: string): Promise<PublicEventType | undefined>;
}

/** A holder's pages, and a team's (contract §14): the same flow under each. */
const OWNER_PAGES: readonly OwnerPages[] = [
  {
    kind: 'holder',
    list: PAGE_PATHS.holder(':handle'),
    eventType: PAGE_PATHS.eventType(':handle', ':slug'),
    profile: publicProfile,
    find: publicEventType,
  },
  {
    kind: 'team',
    list: PAGE_PATHS.team(':handle'),
    eventType: PAGE_PATHS.teamEventType(':handle', ':slug'),
    profile: publicTeamProfile,
    find: publicTeamEventType,
  },
];

export const registerBookingRoutes: PageRoutes = (pages, kit, bookingPage) => {
  for (const owner of OWNER_PAGES) registerOwnerRoutes(pages, kit, bookingPage, owner);
};

function registerOwnerRoutes(
  pages: Parameters<PageRoutes>[0],
  kit: PageKit,
  bookingPage: Parameters<PageRoutes>[2],
  owner: OwnerPages,
): void {
  const { context } = kit;
  const bookingForm = { ...bookingPage, preHandler: bookingFormGuard(pages) };
  const EVENT_TYPE = owner.eventType;
  const eventTypePage = (request: PageRequest) => owner.find(context, request.params.handle, request.params.slug);

  pages.get<{ Params: { handle: string }; Querystring: Query }>(owner.list, bookingPage, async (request, reply) => {
    const visit = visitOf(context, request, request.query);
    const profile = await owner.profile(context, request.params.handle);
    if (!profile) return html(reply, visit.locale, notFoundPage(visit.locale, visit.root), 404);
    return html(
      reply,
      visit.locale,
      renderPage(
        frameOf(kit, visit, MESSAGES[visit.locale].bookWith(ownerName(profile.owner)), request),
        <OwnerPage profile={profile} locale={visit.locale} root={visit.root} carried={carriedBy(visit)} />,
      ),
    );
  });

  pages.get(EVENT_TYPE, bookingPage, async (request: PageRequest, reply) => {
    const visit = visitOf(context, request, request.query);
    const page = await eventTypePage(request);
    if (!page) return html(reply, visit.locale, notFoundPage(visit.locale, visit.root), 404);
    sessionOf(context, request, reply, visit);
    const here = eventTypePath(visit.root, page.owner, page.eventType.slug);
    return picker(kit, request, reply, page, visit, { here, pickAction: `${here}/hold` });
  });

  // A picked time: hold it for this browser session, then ask for the guest's details.
  pages.post(`${EVENT_TYPE}/hold`, bookingForm, async (request: PageRequest, reply) => {
    const visit = visitOf(context, request, request.body);
    const page = await eventTypePage(request);
    if (!page) return html(reply, visit.locale, notFoundPage(visit.locale, visit.root), 404);
    const zone = zoneOf(one(request.body.tz), page);
    const start = one(request.body.start) ?? '';
    const visitor = { session: sessionOf(context, request, reply, visit), client: clientOf(request.ip) };
    const carried = carriedBy(visit);
    try {
      // No hold (null) when this client's or the holder's page holds are all live: the form
      // then books the time straight, if it is still free when it is sent.
      const hold = await holdOnPage(context, page, start, visitor);
      const held = hold ? { start: new Date(hold.start).toISOString(), hold: hold.id } : { start };
      return reply.redirect(pagePath(page, visit.root, carried, { ...held, tz: zone }, '/details'), 303);
    } catch (error) {
      if (isNotBookable(error)) return reply.redirect(takenPath(page, visit.root, carried, zone, start), 303);
      throw error;
    }
  });

  pages.get(`${EVENT_TYPE}/details`, bookingPage, async (request: PageRequest, reply) => {
    const visit = visitOf(context, request, request.query);
    const page = await eventTypePage(request);
    if (!page) return html(reply, visit.locale, notFoundPage(visit.locale, visit.root), 404);
    const zone = zoneOf(one(request.query.tz), page);
    const session = sessionOf(context, request, reply, visit);
    const asked = one(request.query.hold);
    const hold = (await pageHold(context, page, asked ?? '', session)) ?? null;
    // A time not held for this session is shown only while it is free (a hold that ran out,
    // none given, or another session's hold, whose time is not free).
    const start = hold?.start ?? (await freeOnPage(context, page, one(request.query.start) ?? ''));
    if (start === null)
      return reply.redirect(takenPath(page, visit.root, carriedBy(visit), zone, one(request.query.start)), 303);
    const form = { start, hold, lapsed: asked !== undefined, fields: {}, invalid: false };
    return html(reply, visit.locale, detailsPage(kit, reply, { page, zone, visit, request, form }));
  });

  // The guest's details: book the held time (contract §9's conversion, as the guest).
  pages.post(`${EVENT_TYPE}/book`, bookingForm, async (request: PageRequest, reply) => {
    const visit = visitOf(context, request, request.body);
    const page = await eventTypePage(request);
    if (!page) return html(reply, visit.locale, notFoundPage(visit.locale, visit.root), 404);
    const zone = zoneOf(one(request.body.tz), page);
    const carried = carriedBy(visit);
    const session = sessionOf(context, request, reply, visit);
    const asked = one(request.body.hold);
    const hold = (await pageHold(context, page, asked ?? '', session)) ?? null;
    const sent = parseInstant(one(request.body.start) ?? '');
    const start = hold?.start ?? (sent.ok ? sent.value : null);
    if (start === null) return reply.redirect(takenPath(page, visit.root, carried, zone, undefined), 303);
    const form = request.body;
    const sentBack = (errors: ReadonlyArray<FormError | FieldError>): DetailsPageRequest => ({
      page,
      zone,
      visit,
      form: {
        start,
        hold,
        lapsed: asked !== undefined,
        fields: fieldsWithErrors(form, errors, MESSAGES[visit.locale]),
        invalid: true,
      },
    });
    const answers = answersOf(page, form);
    // Every field's problem at once: the guest's own fields and each answer.
    const errors = [...guestErrors(form), ...answerErrors(page.eventType.questions, answers)];
    if (errors.length > 0) return html(reply, visit.locale, detailsPage(kit, reply, sentBack(errors)), 400);
    try {
      const booking = await bookOnPage(context, page, hold, start, {
        ...guestDetails(form),
        guestTimeZone: zone,
        guestLanguage: visit.locale,
        answers,
      });
      if (visit.embedSession !== null) {
        // A frame cannot show the manage page: its own confirmation shows the booking.
        const token = context.links.confirmation(booking.id, context.now() + CONFIRMATION_MS);
        return reply.redirect(pagePath(page, visit.root, carried, { tz: zone }, `/booked/${token}`), 303);
      }
      return reply.redirect(manageUrl(context, booking.id, visit.locale, { new: '1' }), 303);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (isNotBookable(error)) return reply.redirect(takenPath(page, visit.root, carried, zone, start), 303);
      if (error.code !== 'invalid-request') throw error;
      return html(reply, visit.locale, detailsPage(kit, reply, sentBack(error.errors)), 400);
    }
  });

  // An embedded page's confirmation (its token opens it for an hour; it acts on nothing). It
  // tells the embedding window that the booking was made.
  pages.get<{ Params: { handle: string; slug: string; token: string }; Querystring: Query }>(
    `${EVENT_TYPE}/booked/:token`,
    bookingPage,
    async (request, reply) => confirmation(kit, request, reply, owner.kind),
  );
}

async function confirmation(
  kit: PageKit,
  request: FastifyRequest<{ Params: { handle: string; token: string }; Querystring: Query }>,
  reply: FastifyReply,
  kind: PageOwner['kind'],
) {
  const { context } = kit;
  const visit = visitOf(context, request, request.query);
  const found = await guestBooking(context, request.params.token, 'confirmation');
  if (!found || found.owner.kind !== kind || ownerHandle(found.owner) !== request.params.handle)
    return html(reply, visit.locale, notFoundPage(visit.locale, visit.root), 404);
  const { booking } = found;
  const message =
    booking.status === 'confirmed'
      ? {
          type: 'slotwise.booking.created',
          booking: {
            id: booking.id,
            eventTypeId: booking.eventTypeId,
            start: new Date(booking.start).toISOString(),
            end: new Date(booking.end).toISOString(),
          },
        }
      : undefined;
  const zone = (one(request.query.tz) !== undefined && canonicalTimeZone(one(request.query.tz)!)) || found.zone;
  return html(
    reply,
    visit.locale,
    renderPage(
      frameOf(kit, visit, MESSAGES[visit.locale].booked, request, message),
      <EmbeddedConfirmation
        booking={booking}
        title={found.title}
        hostNames={found.hosts.map(shownName)}
        icsUrl={new URL(context.links.ics(booking.id)).pathname}
        manageUrl={manageUrl(context, booking.id, visit.locale)}
        zone={zone}
        clock={kit.clocks.of(zone, visit.locale)}
        locale={visit.locale}
      />,
    ),
  );
}
