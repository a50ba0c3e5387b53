// The manage flow of contract §10: the guest's booking from the manage link, its cancel, and a
// new time picked with the booking flow's picker. Never framed; every change is a POST.
import { cancelBooking, rescheduleBooking } from '../../app/booking-changes.js';
import { changeable, guestActor, guestBooking, reschedulable, shownName } from '../../app/booking-pages.js';
import { PAGE_PATHS } from '../../app/guest-links.js';
import { DomainError } from '../../domain/errors.js';
import { BookingPage } from './booked-views.js';
import { localeOf, one, type Form, type Query } from './form.js';
import { renderPage } from './layout.js';
import { frameOf, html, notFoundPage, picker, zoneOf, type PageRoutes } from './page-kit.js';
import { dateIn, manageTokenPath, manageUrl } from './paths.js';
import type { Visit } from './session.js';

const MANAGE = PAGE_PATHS.manage(':token');

type TokenRoute<Input> = { Params: { token: string } } & Input;

export const registerManageRoutes: PageRoutes = (pages, kit, managePage) => {
  const { context } = kit;
  const manageForm = { ...managePage, preHandler: pages.csrfProtection };

  // The guest's booking, from the manage link (contract §10): a GET never changes anything.
  pages.get<TokenRoute<{ Querystring: Query }>>(MANAGE, managePage, async (request, reply) => {
    const locale = localeOf(request.query, request.headers['accept-language']);
    const root = context.links.basePath();
    const found = await guestBooking(context, request.params.token);
    if (!found) return html(reply, locale, notFoundPage(locale, root), 404);
    const mayChange = changeable(found.booking, context.now());
    return html(
      reply,
      locale,
      renderPage(
        frameOf(kit, { locale, root, embedSession: null }, found.title, request),
        <BookingPage
          booking={found.booking}
          title={found.title}
          hostNames={found.hosts.map(shownName)}
          icsUrl={new URL(context.links.ics(found.booking.id)).pathname}
          zone={found.zone}
          clock={kit.clocks.of(found.zone, locale)}
          locale={locale}
          justBooked={one(request.query.new) === '1' && found.booking.status === 'confirmed'}
          here={manageTokenPath(context, request.params.token)}
          changeable={mayChange}
          csrfToken={mayChange ? reply.generateCsrf() : ''}
        />,
      ),
    );
  });

  // The guest cancels (a POST: following a link never changes anything).
  pages.post<TokenRoute<{ Body: Form }>>(`${MANAGE}/cancel`, manageForm, async (request, reply) => {
    const locale = localeOf(request.body, request.headers['accept-language']);
    const found = await guestBooking(context, request.params.token);
    if (!found) return html(reply, locale, notFoundPage(locale, context.links.basePath()), 404);
    if (changeable(found.booking, context.now())) {
      const reason = (one(request.body.reason) ?? '').trim().slice(0, 2000);
      try {
        await cancelBooking(context, guestActor(found), found.booking.id, reason || null, 'guest');
      } catch (error) {
        // Cancelled or moved by someone else meanwhile: the page shows how it stands now.
        if (!(error instanceof DomainError && error.code === 'invalid-state')) throw error;
      }
    }
    return reply.redirect(manageUrl(context, found.booking.id, locale), 303);
  });

  // The guest picks a new time with the same picker, under the event type's rules.
  pages.get<TokenRoute<{ Querystring: Query }>>(`${MANAGE}/reschedule`, managePage, async (request, reply) => {
    const locale = localeOf(request.query, request.headers['accept-language']);
    const movable = await reschedulable(context, request.params.token);
    if (!movable) return reply.redirect(`${manageTokenPath(context, request.params.token)}?lang=${locale}`, 303);
    const visit: Visit = { locale, root: context.links.basePath(), embedSession: null };
    const here = `${manageTokenPath(context, request.params.token)}/reschedule`;
    return picker(kit, request, reply, movable.page, visit, {
      here,
      pickAction: here,
      moving: movable.found.booking.id,
    });
  });

  pages.post<TokenRoute<{ Body: Form }>>(`${MANAGE}/reschedule`, manageForm, async (request, reply) => {
    const locale = localeOf(request.body, request.headers['accept-language']);
    const movable = await reschedulable(context, request.params.token);
    if (!movable) return reply.redirect(`${manageTokenPath(context, request.params.token)}?lang=${locale}`, 303);
    const zone = zoneOf(one(request.body.tz), movable.page);
    const start = one(request.body.start) ?? '';
    try {
      const { booking } = await rescheduleBooking(
        context,
        guestActor(movable.found),
        movable.found.booking.id,
        { start },
        'guest',
      );
      return reply.redirect(manageUrl(context, booking.id, locale, { new: '1' }), 303);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const query = new URLSearchParams({ tz: zone, lang: locale, notice: 'taken' });
      const date = dateIn(start, zone);
      if (date) query.set('date', date);
      return reply.redirect(`${manageTokenPath(context, request.params.token)}/reschedule?${query.toString()}`, 303);
    }
  });
};
