// The guest-facing pages of contract §10: server-rendered HTML, no key, outside `/api/v1`. Thin
// like the API's routes: read the request, call a use case, render. They live in a scope of their
// own, so their cookies, form parsing, CSRF checks and security headers never touch the API.
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { cancelBooking, rescheduleBooking } from '../../app/bookings.js';
import {
  bookOnPage,
  changeable,
  freeOnPage,
  guestBooking,
  holdOnPage,
  monthOfSlots,
  pageHold,
  publicEventType,
  publicProfile,
  reschedulable,
  shownName,
  type PublicEventType,
} from '../../app/booking-pages.js';
import type { AppContext } from '../../app/context.js';
import { isPageSession, newPageSession } from '../../app/page-sessions.js';
import type { PerAddressLimit } from '../per-address-limit.js';
import { DomainError, type FieldError } from '../../domain/errors.js';
import { isOneLine } from '../../domain/names.js';
import { answerErrors, type Answers } from '../../domain/questions.js';
import { parseInstant } from '../../domain/instant.js';
import { canonicalTimeZone } from '../../domain/zone.js';
import { clientOf } from '../client-address.js';
import type { ClockFormats } from './clocks.js';
import { renderPage, type EmbedFrame, type PageFrame } from './layout.js';
import { MESSAGES, chooseLocale, type Locale, type Messages } from './messages.js';
import {
  BookingPage,
  DetailsPage,
  EmbeddedConfirmation,
  EventTypePage,
  HolderPage,
  isoDate,
  NotFoundPage,
  withQuery,
  type Carried,
  type DetailsPageProps,
  type FormField,
  type PageNotice,
} from './views.js';

/** The stylesheet (and later the one script) pages load: `assets/` at the project's root. */
const ASSETS = fileURLToPath(new URL('../../../assets/', import.meta.url));

/**
 * Pages allow nothing but their own origin's stylesheet, script, images and form targets: no
 * inline script or style, no other origin, no referrer (a manage link must not leak in one). Only
 * the booking pages may be framed, and only by `PUBLIC_EMBED_ORIGINS`; manage pages never are (a
 * framed cancel button could be clicked through a disguise).
 */
function pageSecurity(frameAncestors: readonly string[]) {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        styleSrc: ["'self'"],
        scriptSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        baseUri: ["'none'"],
        frameAncestors: frameAncestors.length > 0 ? [...frameAncestors] : ["'none'"],
      },
    },
    // X-Frame-Options cannot name origins; a browser that knows frame-ancestors ignores it (CSP 2),
    // so it is sent only where nothing may frame the page, for browsers that know no CSP.
    frameguard: frameAncestors.length > 0 ? (false as const) : { action: 'deny' as const },
    referrerPolicy: { policy: 'no-referrer' as const },
    crossOriginEmbedderPolicy: false,
  };
}

/**
 * The browser session of the booking pages: which held time is whose (one at a time). Its token
 * (`newPageSession`: random and signed by the server) rides in this cookie or, in a frame, in the
 * page's links and forms. Over https the cookie's name has the `__Host-` prefix, which browsers
 * take only from this host, `Secure`, with `Path=/` and no `Domain`: no other site of the domain
 * and no plain-http answer can set a guest's session.
 */
const SESSION_COOKIE = 'sw_page';
/** How long an embedded page's confirmation opens after the booking (the guest keeps the manage link). */
const CONFIRMATION_MS = 60 * 60 * 1000;

/** Zones a guest can pick: the runtime's IANA list (with UTC, which some builds leave out). */
const ZONES: readonly string[] = Object.freeze([
  'UTC',
  ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC'),
]);
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const NOTICES: readonly PageNotice[] = ['taken'];

type Query = Record<string, string | string[] | undefined>;
type Form = Record<string, string | string[] | undefined>;
type PageRequest = FastifyRequest<{ Params: { handle: string; slug: string }; Querystring: Query; Body: Form }>;

/**
 * How a booking page is being shown: in which language, and whether in a frame. A framed page
 * (`?embed=1`) gets no cookies from a browser that blocks third-party ones (Safari, Firefox's
 * strict mode, Chrome's incognito), so its session token travels in its links and forms instead.
 */
interface Visit {
  locale: Locale;
  root: string;
  /** The framed page's session token; null when the page is not framed. */
  embedSession: string | null;
}

export interface PageOptions {
  /** Requests per client address (`PUBLIC_RATE_LIMIT_PER_MINUTE`); no limit when absent. */
  requests?: PerAddressLimit;
  /** `PUBLIC_EMBED_ORIGINS`: who may frame the booking pages and hear of a booking made in them. */
  embedOrigins: readonly string[];
  /** The guests' clocks (built by the composition root, bounded). */
  clocks: ClockFormats;
}

export async function registerPages(app: FastifyInstance, context: AppContext, options: PageOptions): Promise<void> {
  const { requests, embedOrigins, clocks } = options;
  await app.register(async (pages) => {
    // Cookies are `Secure` when the pages are served over https (PUBLIC_BASE_URL says so).
    const secure = () => context.links.https;
    await pages.register(cookie);
    await pages.register(csrf, {
      cookieKey: 'sw_csrf',
      cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true, secure: secure() },
    });
    await pages.register(formbody, { bodyLimit: 64 * 1024 });
    await pages.register(helmet, { global: false });
    if (requests) {
      // Every page request counts against its client (contract §10: an address, or an IPv6 /64);
      // past the limit, a page that says so, with Retry-After. The stylesheet does not count: a
      // page load would count twice.
      // Added after helmet's hooks, so the 429 page has the security headers of the page it stands for.
      pages.addHook('onRequest', async (request, reply) => {
        if (request.url.startsWith('/assets/')) return;
        const client = clientOf(request.ip);
        const wait = requests.retryAfterSeconds(client);
        if (wait > 0) {
          const locale = chooseLocale(undefined, request.headers['accept-language']);
          reply.header('retry-after', String(wait));
          return html(reply, locale, tooManyPage(locale, context.links.basePath()), 429);
        }
        requests.record(client);
      });
    }
    await pages.register(fastifyStatic, {
      root: ASSETS,
      prefix: '/assets/',
      // Assets change with the release only; an hour keeps a guest's page loads light.
      maxAge: 3_600_000,
    });
    pages.setErrorHandler((error, request, reply) => {
      // A form whose CSRF token is missing or stale (an old tab): back to where the guest was.
      const locale = localeOf(request.query as Query, request.headers['accept-language']);
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      if (status >= 500) request.log.error({ err: error }, 'page failed');
      return html(
        reply,
        locale,
        notFoundPage(locale, context.links.basePath()),
        status >= 400 && status < 500 ? status : 500,
      );
    });
    const bookingSecurity = pageSecurity(embedOrigins);
    const manageSecurity = pageSecurity([]);
    /**
     * A booking page's form: the CSRF cookie's token, or in a frame, where there are no cookies
     * to ride on, a request the browser says came from the page's own origin (`Sec-Fetch-Site`,
     * sent by every current browser). Without a cookie a forged form acts for no one: its
     * session is not the guest's.
     */
    const bookingForm = {
      helmet: bookingSecurity,
      preHandler(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) {
        if (one((request.body as Form | undefined)?.embed) !== '1') return pages.csrfProtection(request, reply, done);
        const site = request.headers['sec-fetch-site'];
        if (site === undefined || site === 'same-origin') return done();
        done(Object.assign(new Error('A framed booking form was sent from another site.'), { statusCode: 403 }));
      },
    };
    const bookingPage = { helmet: bookingSecurity };
    const managePage = { helmet: manageSecurity };
    const manageForm = { helmet: manageSecurity, preHandler: pages.csrfProtection };
    const frame = (visit: Visit, title: string, request?: FastifyRequest, message?: EmbedFrame['message']) =>
      frameOf(visit, title, embedOrigins, request, message);
    const kit: PageKit = { frame, clocks };

    pages.get<{ Params: { handle: string }; Querystring: Query }>(
      '/book/:handle',
      bookingPage,
      async (request, reply) => {
        const visit = visitOf(context, request, request.query);
        const profile = await publicProfile(context, request.params.handle);
        if (!profile) return html(reply, visit.locale, notFoundPage(visit.locale, visit.root), 404);
        return html(
          reply,
          visit.locale,
          renderPage(
            frame(visit, MESSAGES[visit.locale].bookWith(shownName(profile.holder)), request),
            <HolderPage profile={profile} locale={visit.locale} root={visit.root} carried={carriedBy(visit)} />,
          ),
        );
      },
    );

    pages.get('/book/:handle/:slug', bookingPage, async (request: PageRequest, reply) => {
      const visit = visitOf(context, request, request.query);
      const page = await publicEventType(context, request.params.handle, request.params.slug);
      if (!page) return html(reply, visit.locale, notFoundPage(visit.locale, visit.root), 404);
      sessionOf(context, request, reply, visit);
      const here = `${visit.root}/book/${page.holder.handle}/${page.eventType.slug}`;
      return picker(context, request, reply, page, visit, kit, { here, pickAction: `${here}/hold` });
    });

    // The guest's booking, from the manage link (contract §10): a GET never changes anything.
    pages.get<{ Params: { token: string }; Querystring: Query }>(
      '/manage/:token',
      managePage,
      async (request, reply) => {
        const locale = localeOf(request.query, request.headers['accept-language']);
        const root = context.links.basePath();
        const found = await guestBooking(context, request.params.token);
        if (!found) return html(reply, locale, notFoundPage(locale, root), 404);
        const mayChange = changeable(found.booking, context.now());
        return html(
          reply,
          locale,
          renderPage(
            frame({ locale, root, embedSession: null }, found.title, request),
            <BookingPage
              booking={found.booking}
              title={found.title}
              holderName={shownName(found.holder)}
              icsUrl={new URL(context.links.ics(found.booking.id)).pathname}
              zone={found.zone}
              clock={clocks.of(found.zone, locale)}
              locale={locale}
              justBooked={one(request.query.new) === '1' && found.booking.status === 'confirmed'}
              here={manageTokenPath(context, request.params.token)}
              changeable={mayChange}
              csrfToken={mayChange ? reply.generateCsrf() : ''}
            />,
          ),
        );
      },
    );

    // The guest cancels (a POST: following a link never changes anything).
    pages.post<{ Params: { token: string }; Body: Form }>(
      '/manage/:token/cancel',
      manageForm,
      async (request, reply) => {
        const locale = localeOf(request.body, request.headers['accept-language']);
        const found = await guestBooking(context, request.params.token);
        if (!found) return html(reply, locale, notFoundPage(locale, context.links.basePath()), 404);
        if (changeable(found.booking, context.now())) {
          const reason = (one(request.body.reason) ?? '').trim().slice(0, 2000);
          try {
            await cancelBooking(context, { holderId: found.holder.id }, found.booking.id, reason || null, 'guest');
          } catch (error) {
            // Cancelled or moved by someone else meanwhile: the page shows how it stands now.
            if (!(error instanceof DomainError && error.code === 'invalid-state')) throw error;
          }
        }
        return reply.redirect(manageUrl(context, found.booking.id, locale), 303);
      },
    );

    // The guest picks a new time with the same picker, under the event type's rules.
    pages.get<{ Params: { token: string }; Querystring: Query }>(
      '/manage/:token/reschedule',
      managePage,
      async (request, reply) => {
        const locale = localeOf(request.query, request.headers['accept-language']);
        const movable = await reschedulable(context, request.params.token);
        if (!movable) return reply.redirect(`${manageTokenPath(context, request.params.token)}?lang=${locale}`, 303);
        const visit: Visit = { locale, root: context.links.basePath(), embedSession: null };
        const here = `${manageTokenPath(context, request.params.token)}/reschedule`;
        return picker(context, request, reply, movable.page, visit, kit, {
          here,
          pickAction: here,
          moving: movable.found.booking.id,
        });
      },
    );

    pages.post<{ Params: { token: string }; Body: Form }>(
      '/manage/:token/reschedule',
      manageForm,
      async (request, reply) => {
        const locale = localeOf(request.body, request.headers['accept-language']);
        const movable = await reschedulable(context, request.params.token);
        if (!movable) return reply.redirect(`${manageTokenPath(context, request.params.token)}?lang=${locale}`, 303);
        const zone = zoneOf(one(request.body.tz), movable.page);
        const start = one(request.body.start) ?? '';
        try {
          const { booking } = await rescheduleBooking(
            context,
            { holderId: movable.found.holder.id },
            movable.found.booking.id,
            { start },
            'guest',
          );
          return reply.redirect(`${manageUrl(context, booking.id, locale)}&new=1`, 303);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          const query = new URLSearchParams({ tz: zone, lang: locale, notice: 'taken' });
          const date = dateIn(start, zone);
          if (date) query.set('date', date);
          return reply.redirect(
            `${manageTokenPath(context, request.params.token)}/reschedule?${query.toString()}`,
            303,
          );
        }
      },
    );

    // A picked time: hold it for this browser session, then ask for the guest's details.
    pages.post('/book/:handle/:slug/hold', bookingForm, async (request: PageRequest, reply) => {
      const visit = visitOf(context, request, request.body);
      const page = await publicEventType(context, request.params.handle, request.params.slug);
      if (!page) return html(reply, visit.locale, notFoundPage(visit.locale, visit.root), 404);
      const zone = zoneOf(one(request.body.tz), page);
      const start = one(request.body.start) ?? '';
      const visitor = { session: sessionOf(context, request, reply, visit), client: clientOf(request.ip) };
      try {
        // No hold (null) when this client's or the holder's page holds are all live: the form
        // then books the time straight, if it is still free when it is sent.
        const hold = await holdOnPage(context, page, start, visitor);
        const held = hold ? { start: new Date(hold.start).toISOString(), hold: hold.id } : { start };
        return reply.redirect(pagePath(page, visit, { ...held, tz: zone }, '/details'), 303);
      } catch (error) {
        if (isNotBookable(error)) return reply.redirect(takenPath(page, visit, zone, start), 303);
        throw error;
      }
    });

    pages.get('/book/:handle/:slug/details', bookingPage, async (request: PageRequest, reply) => {
      const visit = visitOf(context, request, request.query);
      const page = await publicEventType(context, request.params.handle, request.params.slug);
      if (!page) return html(reply, visit.locale, notFoundPage(visit.locale, visit.root), 404);
      const zone = zoneOf(one(request.query.tz), page);
      const session = sessionOf(context, request, reply, visit);
      const asked = one(request.query.hold);
      const hold = (await pageHold(context, page, asked ?? '', session)) ?? null;
      // A time not held for this session is shown only while it is free (a hold that ran out,
      // none given, or another session's hold, whose time is not free).
      const start = hold?.start ?? (await freeOnPage(context, page, one(request.query.start) ?? ''));
      if (start === null) return reply.redirect(takenPath(page, visit, zone, one(request.query.start)), 303);
      const form = { start, hold, lapsed: asked !== undefined, fields: {}, invalid: false };
      return html(reply, visit.locale, detailsPage(kit, request, page, zone, visit, csrfTokenFor(visit, reply), form));
    });

    // The guest's details: book the held time (contract §9's conversion, as the guest).
    pages.post('/book/:handle/:slug/book', bookingForm, async (request: PageRequest, reply) => {
      const visit = visitOf(context, request, request.body);
      const m = MESSAGES[visit.locale];
      const page = await publicEventType(context, request.params.handle, request.params.slug);
      if (!page) return html(reply, visit.locale, notFoundPage(visit.locale, visit.root), 404);
      const zone = zoneOf(one(request.body.tz), page);
      const session = sessionOf(context, request, reply, visit);
      const asked = one(request.body.hold);
      const hold = (await pageHold(context, page, asked ?? '', session)) ?? null;
      const sent = parseInstant(one(request.body.start) ?? '');
      const start = hold?.start ?? (sent.ok ? sent.value : null);
      if (start === null) return reply.redirect(takenPath(page, visit, zone, undefined), 303);
      const form = request.body;
      const fields: Record<string, FormField> = {};
      for (const [name, value] of Object.entries(form)) {
        if (value !== undefined) fields[name] = { value, error: null };
      }
      const answers = answersOf(page, form);
      // Every field's problem at once: the guest's own fields and each answer.
      const errors = [...guestErrors(form, m), ...answerErrors(page.eventType.questions, answers)];
      try {
        if (errors.length > 0) throw new DomainError('invalid-request', 'form', errors);
        const booking = await bookOnPage(context, page, hold, start, {
          guestName: (one(form.name) ?? '').trim(),
          guestEmail: (one(form.email) ?? '').trim(),
          guestTimeZone: zone,
          notes: (one(form.notes) ?? '').trim() || undefined,
          answers,
        });
        if (visit.embedSession !== null) {
          // A frame cannot show the manage page: its own confirmation shows the booking.
          const token = context.links.confirmation(booking.id, context.now() + CONFIRMATION_MS);
          return reply.redirect(pagePath(page, visit, { tz: zone }, `/booked/${token}`), 303);
        }
        const manage = new URL(context.links.manage(booking.id));
        return reply.redirect(
          `${manage.pathname}?${new URLSearchParams({ new: '1', lang: visit.locale }).toString()}`,
          303,
        );
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        if (isNotBookable(error)) return reply.redirect(takenPath(page, visit, zone, start), 303);
        if (error.code !== 'invalid-request') throw error;
        for (const { field, message } of error.errors) {
          const name = formFieldOf(field);
          fields[name] = { value: fields[name]?.value ?? '', error: localised(message, m) };
        }
        const again = { start, hold, lapsed: asked !== undefined, fields, invalid: true };
        return html(
          reply,
          visit.locale,
          detailsPage(kit, undefined, page, zone, visit, csrfTokenFor(visit, reply), again),
          400,
        );
      }
    });

    // An embedded page's confirmation (its token opens it for an hour; it acts on nothing). It
    // tells the embedding window that the booking was made.
    pages.get<{ Params: { handle: string; slug: string; token: string }; Querystring: Query }>(
      '/book/:handle/:slug/booked/:token',
      bookingPage,
      async (request, reply) => {
        const visit = visitOf(context, request, request.query);
        const found = await guestBooking(context, request.params.token, 'confirmation');
        if (!found || found.holder.handle !== request.params.handle)
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
            frame(visit, MESSAGES[visit.locale].booked, request, message),
            <EmbeddedConfirmation
              booking={booking}
              title={found.title}
              holderName={shownName(found.holder)}
              icsUrl={new URL(context.links.ics(booking.id)).pathname}
              manageUrl={manageUrl(context, booking.id, visit.locale)}
              zone={zone}
              clock={clocks.of(zone, visit.locale)}
              locale={visit.locale}
            />,
          ),
        );
      },
    );
  });
}

/** What rendering a page needs besides the request: its frame, and the guests' clocks. */
interface PageKit {
  frame(visit: Visit, title: string, request?: FastifyRequest): PageFrame;
  clocks: ClockFormats;
}

/**
 * The page's visit: its language, and in a frame its session token. A frame keeps the token its
 * link or form carries only when it is the server's and the browser came from the pages
 * themselves: a link from anywhere else (the embedding site's frame, a mail, another site) gets a
 * new session, so a session handed to a guest in a link is never the one the guest holds under.
 */
function visitOf(context: AppContext, request: FastifyRequest, source: Query | Form | undefined): Visit {
  const locale = localeOf(source, request.headers['accept-language']);
  const root = context.links.basePath();
  if (one(source?.embed) !== '1') return { locale, root, embedSession: null };
  const token = one(source?.session);
  const kept = token !== undefined && fromThePages(request) && isPageSession(context.secrets, token);
  return { locale, root, embedSession: kept ? token : newPageSession(context.secrets) };
}

/**
 * Whether the browser says the request came from a page of this origin (`Sec-Fetch-Site`, sent by
 * every current browser; a client that sends none is taken at its word, as the forms are).
 */
function fromThePages(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin';
}

/** The token a page's forms carry against forgery: none in a frame, whose forms need none (see `bookingForm`). */
function csrfTokenFor(visit: Visit, reply: FastifyReply): string {
  return visit.embedSession === null ? reply.generateCsrf() : '';
}

/** What the visit's links and forms carry on: its language and, in a frame, its session. */
function carriedBy(visit: Visit): Carried {
  return visit.embedSession === null
    ? { lang: visit.locale }
    : { lang: visit.locale, embed: '1', session: visit.embedSession };
}

/** The frame of a page: framed pages name whom they may tell; GETs link to themselves in each language. */
function frameOf(
  visit: Visit,
  title: string,
  embedOrigins: readonly string[],
  request?: FastifyRequest,
  message?: EmbedFrame['message'],
): PageFrame {
  const inLanguage = request && ((locale: Locale) => pageInLanguage(visit.root, request.url, locale));
  return {
    locale: visit.locale,
    root: visit.root,
    title,
    ...(inLanguage ? { inLanguage } : {}),
    embed: visit.embedSession === null ? null : { origins: embedOrigins, ...(message ? { message } : {}) },
  };
}

/** The page at `url` (path and query, as requested) with its `lang` set to `locale`. */
function pageInLanguage(root: string, url: string, locale: Locale): string {
  const parsed = new URL(url, 'http://page');
  parsed.searchParams.set('lang', locale);
  return `${root}${parsed.pathname}${parsed.search}`;
}

/** The month-and-times picker of an event type: a new booking's, or a booking's new time. */
async function picker(
  context: AppContext,
  request: FastifyRequest<{ Querystring: Query }>,
  reply: FastifyReply,
  page: PublicEventType,
  visit: Visit,
  kit: PageKit,
  targets: { here: string; pickAction: string; moving?: string },
) {
  const query = request.query;
  const zone = zoneOf(one(query.tz), page);
  const month = one(query.month);
  const shown = await monthOfSlots(
    context,
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
      kit.frame(visit, `${page.eventType.title} · ${shownName(page.holder)}`, request),
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

/** The path of the manage page a token opens. */
function manageTokenPath(context: AppContext, token: string): string {
  return `${context.links.basePath()}/manage/${token}`;
}

/** The path of a booking's manage page (its link, without the base URL's origin). */
function manageUrl(context: AppContext, bookingId: string, locale: Locale): string {
  return `${new URL(context.links.manage(bookingId)).pathname}?lang=${locale}`;
}

/** The details form's own state: the time, whether it is held, and what the guest sent. */
type DetailsForm = Pick<DetailsPageProps, 'start' | 'hold' | 'lapsed' | 'fields' | 'invalid'>;

function detailsPage(
  kit: PageKit,
  /** The GET that shows the form (for its language links); none when a sent form comes back. */
  request: FastifyRequest | undefined,
  page: PublicEventType,
  zone: string,
  visit: Visit,
  csrfToken: string,
  form: DetailsForm,
): string {
  return renderPage(
    kit.frame(visit, `${MESSAGES[visit.locale].yourDetails} · ${page.eventType.title}`, request),
    <DetailsPage
      {...form}
      page={page}
      zone={zone}
      clock={kit.clocks.of(zone, visit.locale)}
      locale={visit.locale}
      root={visit.root}
      carried={carriedBy(visit)}
      csrfToken={csrfToken}
    />,
  );
}

/** Whether a booking or hold failed because its time is not (or no longer) bookable. */
function isNotBookable(error: unknown): boolean {
  // A start that is no instant at all (a form altered by hand) is a time the picker never offered.
  return (
    error instanceof DomainError &&
    (error.code === 'slot-unavailable' ||
      (error.code === 'invalid-request' && error.errors.some((e) => e.field === 'start')))
  );
}

/** Back to the picker, on the day of `start` when it is an instant, telling the guest the time was taken. */
function takenPath(page: PublicEventType, visit: Visit, zone: string, start: string | number | undefined): string {
  return pagePath(page, visit, {
    tz: zone,
    notice: 'taken',
    date: start === undefined ? undefined : dateIn(start, zone),
  });
}

/** The guest's name, e-mail and notes, checked as the API's schema checks them. */
function guestErrors(form: Form, m: Messages): FieldError[] {
  const errors: FieldError[] = [];
  const name = (one(form.name) ?? '').trim();
  const email = (one(form.email) ?? '').trim();
  if (name === '') errors.push({ field: 'guestName', message: m.required });
  else if (name.length > 200) errors.push({ field: 'guestName', message: m.tooLong(200) });
  else if (!isOneLine(name)) errors.push({ field: 'guestName', message: m.oneLine });
  if (email === '') errors.push({ field: 'guestEmail', message: m.required });
  else if (email.length > 320 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    errors.push({ field: 'guestEmail', message: m.invalidEmail });
  if ((one(form.notes) ?? '').length > 2000) errors.push({ field: 'notes', message: m.tooLong(2000) });
  return errors;
}

/** The form's answers in the types the questions take; what is left empty is no answer. */
function answersOf(page: PublicEventType, form: Form): Answers {
  const answers: Answers = {};
  for (const question of page.eventType.questions) {
    const value = form[`q_${question.id}`];
    if (question.type === 'checkbox') {
      if (value !== undefined) answers[question.id] = one(value) === 'on';
      else if (question.required) answers[question.id] = false;
      continue;
    }
    if (question.type === 'multiselect') {
      const chosen = [value ?? []].flat();
      if (chosen.length > 0) answers[question.id] = chosen;
      continue;
    }
    const text = (one(value) ?? '').trim();
    if (text === '') continue;
    answers[question.id] = question.type === 'number' && Number.isFinite(Number(text)) ? Number(text) : text;
  }
  return answers;
}

/** The form field a booking error names: `guestName` → `name`, `answers.x` → `q_x`. */
function formFieldOf(field: string): string {
  if (field === 'guestName') return 'name';
  if (field === 'guestEmail') return 'email';
  if (field.startsWith('answers.')) return `q_${field.slice('answers.'.length)}`;
  return field;
}

/** A message for the guest: the page's own ones as they are, the API's in the guest's language. */
function localised(message: string, m: Messages): string {
  if (Object.values(m).includes(message)) return message;
  return message === 'is required' || message === 'must be checked' ? m.required : m.invalidAnswer;
}

/**
 * The browser session's id, as the digest stored with its holds (the token itself is never
 * stored): a framed page's from its links and forms, else a cookie made on the first page view
 * and kept for a day. A cookie the server did not make is replaced, never adopted.
 */
function sessionOf(context: AppContext, request: FastifyRequest, reply: FastifyReply, visit: Visit): string {
  if (visit.embedSession !== null) return createHash('sha256').update(visit.embedSession).digest('base64url');
  const name = context.links.https ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
  let id = request.cookies[name];
  if (!id || !isPageSession(context.secrets, id)) {
    id = newPageSession(context.secrets);
    request.cookies[name] = id;
    reply.setCookie(name, id, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: context.links.https,
      maxAge: 86_400,
    });
  }
  return createHash('sha256').update(id).digest('base64url');
}

/** A path of the event type's pages (`suffix` '' is the page itself) with its query and what the visit carries. */
function pagePath(page: PublicEventType, visit: Visit, query: Record<string, string | undefined>, suffix = ''): string {
  const defined = Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined);
  const path = `${visit.root}/book/${page.holder.handle}/${page.eventType.slug}${suffix}`;
  return withQuery(path, carriedBy(visit), Object.fromEntries(defined));
}

/** The guest's zone: the one asked for when it is one, else the holder's. */
function zoneOf(asked: string | undefined, page: PublicEventType): string {
  return (asked !== undefined && canonicalTimeZone(asked)) || page.holderZone;
}

/** The local date of `start` (an instant, or a form's text of one) in `zone`; undefined when it is no instant. */
function dateIn(start: string | number, zone: string): string | undefined {
  const parsed = typeof start === 'number' ? { ok: true as const, value: start } : parseInstant(start);
  return parsed.ok ? isoDate(parsed.value, zone) : undefined;
}

/** A query or form value that was sent once; a repeated one is no value. */
function one(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function localeOf(source: Query | Form | undefined, acceptLanguage: string | undefined): Locale {
  return chooseLocale(one(source?.lang), acceptLanguage);
}

function html(reply: FastifyReply, locale: Locale, page: string, status = 200) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-language', locale)
    .header('vary', 'accept-language')
    .send(page);
}

function tooManyPage(locale: Locale, root: string): string {
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
function notFoundPage(locale: Locale, root: string): string {
  return renderPage({ locale, root, title: MESSAGES[locale].notFoundTitle }, <NotFoundPage locale={locale} />);
}
