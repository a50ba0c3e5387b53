// The guest-facing pages of contract §10: server-rendered HTML, no key, outside `/api/v1`. Thin
// like the API's routes: read the request, call a use case, render.
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fileURLToPath } from 'node:url';
import { publicProfile, shownName } from '../../app/booking-pages.js';
import type { AppContext } from '../../app/context.js';
import { renderPage } from './layout.js';
import { MESSAGES, chooseLocale, type Locale } from './messages.js';
import { HolderPage, NotFoundPage } from './views.js';

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

function localeOf(request: FastifyRequest<{ Querystring: { lang?: string } }>): Locale {
  return chooseLocale(request.query.lang, request.headers['accept-language']);
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
