// Who a booking page is talking to and what protects the guest: the visit (language, framed or
// not), the browser session that owns its holds, the forms' protection against forgery, the
// pages' security headers and the per-client request limit.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { AppContext } from '../../app/context.js';
import { isPageSession, newPageSession } from '../../app/page-sessions.js';
import { clientOf } from '../client-address.js';
import type { PerMinuteLimit } from '../per-minute-limit.js';
import { localeOf, one, type Form, type Query } from './form.js';
import { chooseLocale, type Locale } from './messages.js';
import type { Carried } from './paths.js';

/**
 * Pages allow nothing but their own origin's stylesheet, script, images and form targets: no
 * inline script or style, no other origin, no referrer (a manage link must not leak in one). Only
 * the booking pages may be framed, and only by `PUBLIC_EMBED_ORIGINS`; manage pages never are (a
 * framed cancel button could be clicked through a disguise).
 */
export function pageSecurity(frameAncestors: readonly string[]) {
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

export type PageSecurity = ReturnType<typeof pageSecurity>;

/**
 * Every page request counts against its client (contract §10: an address, or an IPv6 /64); past
 * the limit, `tooMany` answers with Retry-After. The stylesheet does not count: a page load would
 * count twice. Add it after helmet's hooks, so the 429 page has the security headers of the page
 * it stands for.
 */
export function limitPerClient(
  pages: FastifyInstance,
  requests: PerMinuteLimit,
  tooMany: (reply: FastifyReply, locale: Locale) => FastifyReply,
): void {
  pages.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/assets/')) return;
    const client = clientOf(request.ip);
    const wait = requests.retryAfterSeconds(client);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      return tooMany(reply, chooseLocale(undefined, request.headers['accept-language']));
    }
    requests.record(client);
  });
}

/**
 * A booking page's form: the CSRF cookie's token, or in a frame, where there are no cookies to
 * ride on, a request the browser says came from the page's own origin (`Sec-Fetch-Site`, sent by
 * every current browser). Without a cookie a forged form acts for no one: its session is not the
 * guest's.
 */
export function bookingFormGuard(pages: FastifyInstance) {
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    if (one((request.body as Form | undefined)?.embed) !== '1') return pages.csrfProtection(request, reply, done);
    if (fromThePages(request)) return done();
    done(Object.assign(new Error('A framed booking form was sent from another site.'), { statusCode: 403 }));
  };
}

/**
 * How a booking page is being shown: in which language, and whether in a frame. A framed page
 * (`?embed=1`) gets no cookies from a browser that blocks third-party ones (Safari, Firefox's
 * strict mode, Chrome's incognito), so its session token travels in its links and forms instead.
 */
export interface Visit {
  locale: Locale;
  root: string;
  /** The framed page's session token; null when the page is not framed. */
  embedSession: string | null;
}

/**
 * The page's visit: its language, and in a frame its session token. A frame keeps the token its
 * link or form carries only when it is the server's and the browser came from the pages
 * themselves: a link from anywhere else (the embedding site's frame, a mail, another site) gets a
 * new session, so a session handed to a guest in a link is never the one the guest holds under.
 */
export function visitOf(context: AppContext, request: FastifyRequest, source: Query | Form | undefined): Visit {
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

/** The token a page's forms carry against forgery: none in a frame, whose forms need none (see `bookingFormGuard`). */
export function csrfTokenFor(visit: Visit, reply: FastifyReply): string {
  return visit.embedSession === null ? reply.generateCsrf() : '';
}

/** What the visit's links and forms carry on: its language and, in a frame, its session. */
export function carriedBy(visit: Visit): Carried {
  return visit.embedSession === null
    ? { lang: visit.locale }
    : { lang: visit.locale, embed: '1', session: visit.embedSession };
}

/**
 * The browser session of the booking pages: which held time is whose (one at a time). Its token
 * (`newPageSession`: random and signed by the server) rides in this cookie or, in a frame, in the
 * page's links and forms. Over https the cookie's name has the `__Host-` prefix, which browsers
 * take only from this host, `Secure`, with `Path=/` and no `Domain`: no other site of the domain
 * and no plain-http answer can set a guest's session.
 */
const SESSION_COOKIE = 'sw_page';

/**
 * The browser session's id, as the digest stored with its holds (the token itself is never
 * stored): a framed page's from its links and forms, else a cookie made on the first page view
 * and kept for a day. A cookie the server did not make is replaced, never adopted.
 */
export function sessionOf(context: AppContext, request: FastifyRequest, reply: FastifyReply, visit: Visit): string {
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
