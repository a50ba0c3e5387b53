// Embedding (contract §10, `?embed=1` and PUBLIC_EMBED_ORIGINS), as HTTP on both stores: who may
// frame which page, a framed guest's whole path with no cookies at all (browsers block them in
// third-party frames), the confirmation a frame shows instead of the manage page, and what a
// forged or stale framed request gets. (The same in Chromium, inside another site's page, is
// test/pages/embed.test.ts.)
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { BEFORE_MONDAY, createEventType, type EventTypeBody } from './helpers.js';
import { hiddenFields } from './page-browser.js';

const SHOP = 'https://shop.example.com';
const WWW = 'https://www.example.com:8443';
const PAGE = '/book/alice/intro-call';

let h: Harness;
let token: string;
let et: EventTypeBody;

async function start(embedOrigins: string[]) {
  h = await createHarness({ now: BEFORE_MONDAY, embedOrigins });
  token = await h.key('alice');
  et = await createEventType(h, token, {
    title: 'Intro call',
    durationMinutes: 30,
    public: true,
    questions: [{ id: 'company', label: 'Company', type: 'text', required: true }],
  });
}

afterEach(async () => {
  await h.close();
});

/** A GET as a framed page makes it: no cookies, ever. */
const get = (url: string) => h.request({ method: 'GET', url });

/** A form POST from the frame itself: no cookies, and the browser says it came from the page's own origin. */
function post(url: string, form: Record<string, string>, site = 'same-origin') {
  return h.request({
    method: 'POST',
    url,
    payload: new URLSearchParams(form).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': site },
  });
}

function frameAncestors(res: LightMyRequestResponse): string | undefined {
  return String(res.headers['content-security-policy'])
    .split(';')
    .map((directive) => directive.trim())
    .find((directive) => directive.startsWith('frame-ancestors'));
}

/** The hidden fields of the form that picks `start`. */
function pickForm(html: string, start: string): Record<string, string> {
  for (const [form] of html.matchAll(/<form method="post" action="[^"]*\/hold">.*?<\/form>/g)) {
    const fields = hiddenFields(form);
    if (fields.start === start) return fields;
  }
  throw new Error(`${start} is not offered`);
}

const unescape = (text: string) => text.replaceAll('&amp;', '&');

describe('who may frame the pages', () => {
  it('when no embed origin is configured, then no page may be framed, by CSP or by X-Frame-Options', async () => {
    await start([]);
    for (const url of ['/book/alice', PAGE, `${PAGE}?embed=1`, '/book/nobody']) {
      const res = await get(url);
      expect(frameAncestors(res), url).toBe("frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it('when embed origins are configured, then the booking pages (and their 404) name exactly them, and no X-Frame-Options overrules it', async () => {
    await start([SHOP, WWW]);
    for (const url of ['/book/alice', PAGE, `${PAGE}?embed=1`, '/book/alice/private-one', '/book/nobody']) {
      const res = await get(url);
      expect(frameAncestors(res), url).toBe(`frame-ancestors ${SHOP} ${WWW}`);
      expect(res.headers['x-frame-options'], url).toBeUndefined();
    }
  });

  it('when embed origins are configured, then a manage page and its picker still may never be framed', async () => {
    await start([SHOP]);
    const booking = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: {
        eventTypeId: et.id,
        start: '2026-01-05T09:00:00Z',
        guestName: 'Ada',
        guestEmail: 'ada@example.com',
        answers: { company: 'AE' },
      },
    });
    const manage = new URL(booking.json<{ manageUrl: string }>().manageUrl).pathname;
    for (const url of [manage, `${manage}?embed=1`, `${manage}/reschedule?embed=1`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(frameAncestors(res), url).toBe("frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.body, url).not.toContain('data-embed-origins');
    }
  });
});

describe('a framed guest, without cookies', () => {
  it('when the guest picks, fills in and books inside the frame, then every step carries its session, nothing sets a cookie, and the frame ends on a confirmation that tells the embedding site', async () => {
    await start([SHOP, WWW]);
    const page = await get(`${PAGE}?embed=1&date=2026-01-05&tz=Europe/Berlin&lang=de`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.body).toContain(`<body class="embedded" data-embed-origins="${SHOP} ${WWW}">`);
    expect(page.body).not.toContain('<footer');
    expect(page.body).not.toContain('name="_csrf"');
    const form = pickForm(page.body, '2026-01-05T09:00:00.000Z');
    expect(form).toMatchObject({ tz: 'Europe/Berlin', lang: 'de', embed: '1' });
    // The server's own session: 256 random bits and their MAC.
    expect(form.session).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    // Every link of the page stays in the frame's session: month and day links, the zone form.
    const links = [...page.body.matchAll(/href="([^"]+)"/g)]
      .map((m) => unescape(m[1]!))
      .filter((l) => l.startsWith('/book'));
    expect(links.length).toBeGreaterThan(3);
    for (const link of links) expect(link, link).toContain(`embed=1&session=${form.session}`);

    const picked = await post(`${PAGE}/hold`, form);
    expect(picked.statusCode, picked.body).toBe(303);
    expect(picked.headers['set-cookie']).toBeUndefined();
    const details = String(picked.headers.location);
    expect(details).toContain(`embed=1&session=${form.session}`);

    const detailsPage = await get(details);
    expect(detailsPage.statusCode, detailsPage.body).toBe(200);
    expect(detailsPage.body).toContain('class="embedded"');
    const booked = await post(`${PAGE}/book`, {
      ...hiddenFields(detailsPage.body),
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      q_company: 'Analytical Engines',
    });
    expect(booked.statusCode, booked.body).toBe(303);
    const confirmationUrl = String(booked.headers.location);
    expect(confirmationUrl).toMatch(/^\/book\/alice\/intro-call\/booked\/bkg_[a-z0-9]+\.\d+\.[A-Za-z0-9_-]{43}\?/);

    const confirmation = await get(confirmationUrl);
    expect(confirmation.statusCode, confirmation.body).toBe(200);
    expect(frameAncestors(confirmation)).toBe(`frame-ancestors ${SHOP} ${WWW}`);
    expect(confirmation.body).toContain('<h1>Ihre Buchung ist bestätigt</h1>');
    expect(confirmation.body).toContain('Montag, 5. Januar, 10:00–10:30 (Europe/Berlin)');

    const [listed] = (await h.request({ method: 'GET', url: '/api/v1/bookings', token })).json<{
      data: Array<{ id: string; start: string; end: string; source: string; manageUrl: string; icsUrl: string }>;
    }>().data;
    expect(listed!.source).toBe('page');
    // What the embedding window hears: which booking, when; no guest data, no capability link.
    const message = /data-embed-message="([^"]+)"/.exec(confirmation.body)![1]!;
    expect(JSON.parse(message.replaceAll('&quot;', '"'))).toEqual({
      type: 'slotwise.booking.created',
      booking: { id: listed!.id, eventTypeId: et.id, start: listed!.start, end: listed!.end },
    });
    // The manage page opens outside the frame; the .ics downloads from it.
    const managePath = new URL(listed!.manageUrl).pathname;
    expect(confirmation.body).toContain(`<a href="${managePath}?lang=de" target="_blank" rel="noopener noreferrer">`);
    expect(confirmation.body).toContain(`href="${new URL(listed!.icsUrl).pathname}"`);
    expect(confirmation.body).not.toMatch(/<form/);
  });

  it('when another frame (another session) opens the details of a hold, then it is sent back to pick a time in its own session, and the hold stays the first frame’s', async () => {
    await start([SHOP]);
    const page = await get(`${PAGE}?embed=1&date=2026-01-05&tz=UTC`);
    const form = pickForm(page.body, '2026-01-05T09:00:00.000Z');
    const details = String((await post(`${PAGE}/hold`, form)).headers.location);
    const othersSession = pickForm(
      (await get(`${PAGE}?embed=1&date=2026-01-05&tz=UTC`)).body,
      '2026-01-05T09:30:00.000Z',
    ).session!;
    const res = await get(details.replace(form.session!, othersSession));
    expect(res.statusCode).toBe(303);
    expect(String(res.headers.location)).toContain('notice=taken');
    expect(String(res.headers.location)).toContain(`session=${othersSession}`);
    expect((await get(details)).statusCode).toBe(200);
  });

  it('when a guest opens a framed page by a link carrying someone else’s session (one the server gave the sender, or one made up), then the guest gets a session of their own, and the sender cannot end the guest’s hold', async () => {
    await start([SHOP]);
    const sendersPage = (await get(`${PAGE}?embed=1&date=2026-01-05&tz=UTC`)).body;
    const sendersSession = pickForm(sendersPage, '2026-01-05T15:00:00.000Z').session!;
    const madeUp = `${'x'.repeat(43)}.${'y'.repeat(43)}`;
    // How the link reaches the guest: inside the sender's own site or frame, typed in or from a
    // mail, or (for a made-up session) even from the pages themselves.
    const cases = [
      { handed: sendersSession, arrival: 'cross-site', guestTime: '09:00', sendersTime: '10:00' },
      { handed: sendersSession, arrival: 'none', guestTime: '11:00', sendersTime: '12:00' },
      { handed: madeUp, arrival: 'same-origin', guestTime: '13:00', sendersTime: '14:00' },
    ];
    for (const { handed, arrival, guestTime, sendersTime } of cases) {
      const page = await h.request({
        method: 'GET',
        url: `${PAGE}?embed=1&session=${encodeURIComponent(handed)}&date=2026-01-05&tz=UTC`,
        headers: { 'sec-fetch-site': arrival },
      });
      expect(page.statusCode, page.body).toBe(200);
      const form = pickForm(page.body, `2026-01-05T${guestTime}:00.000Z`);
      expect(form.session, arrival).not.toBe(handed);
      const details = String((await post(`${PAGE}/hold`, form)).headers.location);
      expect(details).toContain('/details?');
      // The sender picks a time under the session it handed over (from its own frame).
      const sendersPick = await post(`${PAGE}/hold`, {
        ...pickForm(page.body, `2026-01-05T${sendersTime}:00.000Z`),
        session: handed,
      });
      expect(sendersPick.statusCode).toBe(303);
      const guestsDetails = await get(details);
      expect(guestsDetails.statusCode, `${arrival}: the guest's hold ended`).toBe(200);
    }
  });

  it('when a framed form is sent from another site, then 403 and nothing is held', async () => {
    await start([SHOP]);
    const page = await get(`${PAGE}?embed=1&date=2026-01-05&tz=UTC`);
    const form = pickForm(page.body, '2026-01-05T09:00:00.000Z');
    for (const site of ['cross-site', 'same-site']) {
      const res = await post(`${PAGE}/hold`, form, site);
      expect(res.statusCode, site).toBe(403);
    }
    const slots = await h.request({
      method: 'GET',
      url: `/api/v1/slots?eventTypeId=${et.id}&from=2026-01-05T09:00:00Z&to=2026-01-05T09:30:00Z`,
      token,
    });
    expect(slots.json<{ data: unknown[] }>().data).toHaveLength(1);
  });

  it('when a page is not framed, then its forms still need the CSRF cookie and token', async () => {
    await start([SHOP]);
    const page = await get(`${PAGE}?date=2026-01-05&tz=UTC`);
    const form = pickForm(page.body, '2026-01-05T09:00:00.000Z');
    expect(form._csrf).toBeDefined();
    const res = await post(`${PAGE}/hold`, form);
    expect(res.statusCode).toBe(403);
  });
});

describe('the framed confirmation link', () => {
  async function bookInFrame(): Promise<string> {
    const page = await get(`${PAGE}?embed=1&date=2026-01-05&tz=UTC`);
    const details = String(
      (await post(`${PAGE}/hold`, pickForm(page.body, '2026-01-05T09:00:00.000Z'))).headers.location,
    );
    const booked = await post(`${PAGE}/book`, {
      ...hiddenFields((await get(details)).body),
      name: 'Ada',
      email: 'ada@example.com',
      q_company: 'AE',
    });
    return String(booked.headers.location);
  }

  it('when an hour has passed, then the confirmation no longer opens (the manage link does)', async () => {
    await start([SHOP]);
    const url = await bookInFrame();
    h.clock.current += 59 * 60_000;
    expect((await get(url)).statusCode).toBe(200);
    h.clock.current += 60_000;
    const late = await get(url);
    expect(late.statusCode).toBe(404);
    expect(late.body).toBe((await get('/book/nobody?embed=1')).body);
    const [booking] = (await h.request({ method: 'GET', url: '/api/v1/bookings', token })).json<{
      data: Array<{ manageUrl: string }>;
    }>().data;
    expect((await get(new URL(booking!.manageUrl).pathname)).statusCode).toBe(200);
  });

  it('when its token is altered, or it is opened under another holder, then the same 404', async () => {
    await start([SHOP]);
    const url = await bookInFrame();
    const [path, query] = url.split('?') as [string, string];
    const tokenPart = path.slice(path.lastIndexOf('/') + 1);
    const [id, until, signature] = tokenPart.split('.') as [string, string, string];
    const forged = [
      `${id}.${Number(until) + 3600}.${signature}`,
      // The first character: it carries six bits of the MAC (the last carries only four, and may already be the one put there).
      `${id}.${until}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`,
      `${id}.${until}`,
      `bkg_other.${until}.${signature}`,
    ];
    for (const token of forged) {
      expect((await get(`${PAGE}/booked/${token}?${query}`)).statusCode, token).toBe(404);
    }
    const bob = await h.key('bob');
    await createEventType(h, bob, { title: 'Intro call', public: true });
    expect((await get(`/book/bob/intro-call/booked/${tokenPart}?${query}`)).statusCode).toBe(404);
  });

  it('when the booking was cancelled since, then the confirmation says nothing to the embedding site', async () => {
    await start([SHOP]);
    const url = await bookInFrame();
    const bookingId = url.split('/booked/')[1]!.split('.')[0]!;
    await h.request({ method: 'POST', url: `/api/v1/bookings/${bookingId}/cancel`, token, json: {} });
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('data-embed-origins');
    expect(res.body).not.toContain('data-embed-message');
  });
});
