// The guest-facing pages of contract §10: server-rendered HTML, no key, outside `/api/v1`. They
// live in a scope of their own, so their cookies, form parsing, CSRF checks and security headers
// never touch the API. This file sets up that scope; the routes are as thin as the API's:
// booking-routes.tsx (the booking flow) and manage-routes.tsx (the manage link's pages) read the
// request, call a use case and render. session.ts knows who is asking and what protects them,
// form.ts reads and checks forms, paths.ts builds every page URL.
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { fileURLToPath } from 'node:url';
import type { AppContext } from '../../app/context.js';
import type { PerMinuteLimit } from '../per-minute-limit.js';
import { registerBookingRoutes } from './booking-routes.js';
import type { ClockFormats } from './clocks.js';
import { localeOf, type Query } from './form.js';
import { registerManageRoutes } from './manage-routes.js';
import { html, notFoundPage, tooManyPage, type PageKit } from './page-kit.js';
import { limitPerClient, pageSecurity } from './session.js';

/** The stylesheet (and later the one script) pages load: `assets/` at the project's root. */
const ASSETS = fileURLToPath(new URL('../../../assets/', import.meta.url));

export interface PageOptions {
  /** Requests per client address (`PUBLIC_RATE_LIMIT_PER_MINUTE`); no limit when absent. */
  requests?: PerMinuteLimit;
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
      limitPerClient(pages, requests, (reply, locale) =>
        html(reply, locale, tooManyPage(locale, context.links.basePath()), 429),
      );
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
    const kit: PageKit = { context, clocks, embedOrigins };
    registerBookingRoutes(pages, kit, { helmet: pageSecurity(embedOrigins) });
    registerManageRoutes(pages, kit, { helmet: pageSecurity([]) });
  });
}
