// The guest-facing pages of contract §10: server-rendered HTML, no key, outside `/api/v1`. Thin
// like the API's routes: read the request, call a use case, render.
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fileURLToPath } from 'node:url';
import { monthOfSlots, publicEventType, publicProfile, shownName } from '../../app/booking-pages.js';
import { canonicalTimeZone } from '../../domain/zone.js';
import type { AppContext } from '../../app/context.js';
import { renderPage } from './layout.js';
import { MESSAGES, chooseLocale, type Locale } from './messages.js';
import { EventTypePage, HolderPage, NotFoundPage } from './views.js';

/** The stylesheet (and later the one script) pages load: `assets/` at the project's root. */
const ASSETS = fileURLToPath(new URL('../../../assets/', import.meta.url));

/**
 * Pages allow nothing but their own origin's stylesheet, script, images and form targets: no
 * inline script or style, no other origin, no framing (booking pages open up to
 * `PUBLIC_EMBED_ORIGINS` later), no referrer (a manage link must not leak in one).
 */
const PAGE_SECURITY = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      styleSrc: ["'self'"],
      scriptSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      formAction: ["'self'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
    },
  },
  referrerPolicy: { policy: 'no-referrer' as const },
  crossOriginEmbedderPolicy: false,
};

export async function registerPages(app: FastifyInstance, context: AppContext): Promise<void> {
  await app.register(helmet, { global: false });
  await app.register(fastifyStatic, {
    root: ASSETS,
    prefix: '/assets/',
    // Assets change with the release only; an hour keeps a guest's page loads light.
    maxAge: 3_600_000,
  });

  app.get<{ Params: { handle: string; slug: string }; Querystring: EventTypeQuery }>(
    '/book/:handle/:slug',
    { helmet: PAGE_SECURITY },
    (request, reply) => eventTypePage(context, request, reply),
  );

  app.get<{ Params: { handle: string }; Querystring: { lang?: string } }>(
    '/book/:handle',
    { helmet: PAGE_SECURITY },
    async (request, reply) => {
      const locale = localeOf(request);
      const root = context.links.basePath();
      const profile = await publicProfile(context, request.params.handle);
      if (!profile) return notFound(reply, locale, root);
      return html(
        reply,
        locale,
        renderPage(
          { locale, root, title: MESSAGES[locale].bookWith(shownName(profile.holder)) },
          <HolderPage profile={profile} locale={locale} root={root} />,
        ),
      );
    },
  );
}

/** Zones a guest can pick: the runtime's IANA list (with UTC, which some builds leave out). */
const ZONES: readonly string[] = Object.freeze([
  'UTC',
  ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC'),
]);
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

function localeOf(request: FastifyRequest<{ Querystring: { lang?: string } }>): Locale {
  // A query string may repeat a parameter: then it is an array, and not a language.
  if (typeof request.query.lang !== 'string') return chooseLocale(undefined, request.headers['accept-language']);
  return chooseLocale(request.query.lang, request.headers['accept-language']);
}

type EventTypeQuery = { lang?: string; tz?: string; month?: string; date?: string };

async function eventTypePage(
  context: AppContext,
  request: FastifyRequest<{ Params: { handle: string; slug: string }; Querystring: EventTypeQuery }>,
  reply: FastifyReply,
) {
  const locale = localeOf(request);
  const root = context.links.basePath();
  const page = await publicEventType(context, request.params.handle, request.params.slug);
  if (!page) return notFound(reply, locale, root);
  const { tz, month, date } = request.query;
  // Without JavaScript (or before it tells the browser's zone) the holder's zone; a zone that is no
  // zone is ignored the same way.
  const zone = (typeof tz === 'string' && canonicalTimeZone(tz)) || page.holderZone;
  const shown = await monthOfSlots(
    context,
    page,
    zone,
    typeof month === 'string' && MONTH.test(month) ? month : undefined,
  );
  const day = typeof date === 'string' && shown.days.has(date) ? date : ([...shown.days.keys()].sort()[0] ?? null);
  const zones = ZONES.includes(zone) ? ZONES : [zone, ...ZONES];
  return html(
    reply,
    locale,
    renderPage(
      { locale, root, title: `${page.eventType.title} · ${shownName(page.holder)}` },
      <EventTypePage page={page} month={shown} zone={zone} day={day} zones={zones} locale={locale} root={root} />,
    ),
  );
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

/** Every page that is not there looks the same: an unknown handle, nothing public, an unknown or private event type. */
function notFound(reply: FastifyReply, locale: Locale, root: string) {
  return html(
    reply,
    locale,
    renderPage({ locale, root, title: MESSAGES[locale].notFoundTitle }, <NotFoundPage locale={locale} />),
    404,
  );
}
