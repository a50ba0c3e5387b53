// A calendar host for tests: a node:http server on 127.0.0.1 that serves ICS texts at paths with
// ETag and Last-Modified and answers 304 to a matching conditional request, and can be told, per
// path, to redirect, hang, trickle, send garbage, a huge or gzipped body, an error status, a
// CalDAV server's multistatus answers as given (hostile ones included), or to answer as a CalDAV
// calendar of given objects. It records every request (method, path, the conditional and
// authorization headers) and how many it had open at once.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

export type Route =
  /** An ICS text. ETag defaults to a hash of the body (null: none); Last-Modified to a fixed date (null: none). */
  | {
      kind: 'calendar';
      body: string | Buffer;
      etag?: string | null;
      lastModified?: string | null;
      contentType?: string;
      gzip?: boolean;
    }
  /** `to`: a path on this server or a whole URL (another host, another scheme). */
  | { kind: 'redirect'; to: string; status?: 301 | 302 | 303 | 307 | 308 }
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  /** Accept the request and never answer. */
  | { kind: 'hang' }
  /** Answer 200 and send `body` in pieces of `chunkBytes` every `intervalMs`, or never finish it (`stall`). */
  | { kind: 'slow'; body: string; chunkBytes: number; intervalMs: number; stall?: boolean }
  /** A 200 of `bytes` bytes, streamed, starting like an iCalendar file; `declareLength` sends Content-Length. */
  | { kind: 'huge'; bytes: number; declareLength?: boolean }
  /** A CalDAV collection: 207 with `propfind` to PROPFIND, with `report` to REPORT (XML texts, sent as they are). */
  | { kind: 'dav'; propfind: string; report?: string }
  /**
   * A CalDAV calendar collection: PROPFIND answers its resource type and a CTag (a hash of the
   * objects), REPORT (a calendar-query) every object, whatever the filter.
   */
  | { kind: 'caldav'; objects: string[] };

export interface CalendarRequest {
  method: string;
  path: string;
  ifNoneMatch: string | null;
  ifModifiedSince: string | null;
  authorization: string | null;
  host: string | null;
}

export const DEFAULT_LAST_MODIFIED = 'Mon, 05 Jan 2026 08:00:00 GMT';

export class CalendarServer {
  readonly requests: CalendarRequest[] = [];
  /** Requests being answered now, and the most there were at once. */
  open = 0;
  peakOpen = 0;
  private readonly routes = new Map<string, Route>();
  /** Gzipped bodies, made when served: compressing a large one on request would stall this process's event loop. */
  private readonly zipped = new WeakMap<Route, Buffer>();
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static start(): Promise<CalendarServer> {
    return CalendarServer.startOn('127.0.0.1');
  }

  /** A server on another loopback address (127.0.0.2: another host, for redirects across hosts). */
  static async startOn(host: string): Promise<CalendarServer> {
    const server = createServer();
    const port = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
    });
    const calendars = new CalendarServer(server, port);
    server.on('connection', (socket) => {
      calendars.sockets.add(socket);
      socket.on('close', () => calendars.sockets.delete(socket));
    });
    server.on('request', (request, response) => calendars.handle(request, response));
    return calendars;
  }

  /** Serves `route` at `path` (replacing what was there). */
  serve(path: string, route: Route): this {
    this.routes.set(path, route);
    if (route.kind === 'calendar' && route.gzip) {
      this.zipped.set(route, gzipSync(Buffer.isBuffer(route.body) ? route.body : Buffer.from(route.body, 'utf8')));
    }
    return this;
  }

  /** The address of `path` as http://127.0.0.1:port. */
  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The same path through the name localhost: another origin, and a name the DNS guard resolves. */
  localhostUrl(path: string): string {
    return `http://localhost:${this.port}${path}`;
  }

  requestsTo(path: string): CalendarRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const path = request.url ?? '/';
    this.requests.push({
      method: request.method ?? '',
      path,
      ifNoneMatch: request.headers['if-none-match'] ?? null,
      ifModifiedSince: request.headers['if-modified-since'] ?? null,
      authorization: request.headers.authorization ?? null,
      host: request.headers.host ?? null,
    });
    request.resume();
    this.open += 1;
    this.peakOpen = Math.max(this.peakOpen, this.open);
    response.once('close', () => (this.open -= 1));
    const route = this.routes.get(path);
    if (!route) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end(`nothing at ${path}`);
      return;
    }
    switch (route.kind) {
      case 'calendar':
        return this.calendar(request, response, route);
      case 'redirect':
        response.writeHead(route.status ?? 302, { location: route.to }).end();
        return;
      case 'status':
        response.writeHead(route.status, { 'content-type': 'text/plain', ...route.headers }).end(route.body ?? '');
        return;
      case 'hang':
        return;
      case 'slow': {
        response.writeHead(200, { 'content-type': 'text/calendar' });
        let at = 0;
        const timer = setInterval(() => {
          if (response.destroyed) {
            clearInterval(timer);
            return;
          }
          if (at >= route.body.length) {
            clearInterval(timer);
            if (!route.stall) response.end();
            return;
          }
          response.write(route.body.slice(at, at + route.chunkBytes));
          at += route.chunkBytes;
        }, route.intervalMs);
        this.timers.add(timer);
        return;
      }
      case 'huge':
        return huge(response, route.bytes, route.declareLength ?? false);
      case 'dav': {
        const body =
          request.method === 'REPORT' ? route.report : request.method === 'PROPFIND' ? route.propfind : undefined;
        if (body === undefined) {
          response.writeHead(405, { 'content-type': 'text/plain' }).end();
          return;
        }
        const bytes = Buffer.from(body, 'utf8');
        response
          .writeHead(207, { 'content-type': 'application/xml; charset=utf-8', 'content-length': bytes.length })
          .end(bytes);
        return;
      }
      case 'caldav':
        return caldav(request, response, path, route.objects);
    }
  }

  private calendar(
    request: IncomingMessage,
    response: ServerResponse,
    route: Extract<Route, { kind: 'calendar' }>,
  ): void {
    const body = Buffer.isBuffer(route.body) ? route.body : Buffer.from(route.body, 'utf8');
    const etag =
      route.etag === undefined ? `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"` : route.etag;
    const lastModified = route.lastModified === undefined ? DEFAULT_LAST_MODIFIED : route.lastModified;
    const headers: Record<string, string> = {
      'content-type': route.contentType ?? 'text/calendar; charset=utf-8',
      'cache-control': 'private, max-age=0',
    };
    if (etag !== null) headers.etag = etag;
    if (lastModified !== null) headers['last-modified'] = lastModified;
    // RFC 9110 §13.2.2: If-None-Match decides when present; If-Modified-Since only without it.
    const ifNoneMatch = request.headers['if-none-match'];
    const ifModifiedSince = request.headers['if-modified-since'];
    const notModified =
      ifNoneMatch !== undefined
        ? etag !== null &&
          ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === etag)
        : ifModifiedSince !== undefined &&
          lastModified !== null &&
          Date.parse(lastModified) <= Date.parse(ifModifiedSince);
    if (notModified) {
      response.writeHead(304, headers).end();
      return;
    }
    if (route.gzip) {
      const zipped = this.zipped.get(route)!;
      response.writeHead(200, { ...headers, 'content-encoding': 'gzip', 'content-length': zipped.length }).end(zipped);
      return;
    }
    response.writeHead(200, { ...headers, 'content-length': body.length }).end(body);
  }
}

/** Streams `bytes` bytes: a VCALENDAR header, then one event after another, without end. */
function huge(response: ServerResponse, bytes: number, declareLength: boolean): void {
  response.writeHead(200, {
    'content-type': 'text/calendar',
    ...(declareLength ? { 'content-length': String(bytes) } : {}),
  });
  const head = Buffer.from('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//huge//EN\r\n');
  const event = Buffer.from(
    'BEGIN:VEVENT\r\nUID:x@test\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260105T090000Z\r\nDTEND:20260105T100000Z\r\nEND:VEVENT\r\n',
  );
  let sent = 0;
  const write = (): void => {
    while (sent < bytes && !response.destroyed) {
      const piece = sent === 0 ? head : event;
      const cut = piece.subarray(0, Math.min(piece.length, bytes - sent));
      sent += cut.length;
      if (!response.write(cut)) {
        response.once('drain', write);
        return;
      }
    }
    if (!response.destroyed) response.end();
  };
  write();
}

const escapeXml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

function caldav(request: IncomingMessage, response: ServerResponse, path: string, objects: string[]): void {
  const headers = { 'content-type': 'application/xml; charset=utf-8' };
  const head =
    '<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">';
  if (request.method === 'PROPFIND') {
    const ctag = createHash('sha256').update(objects.join('\n')).digest('hex').slice(0, 16);
    const body = `${head}<d:response><d:href>${path}</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype><cs:getctag>${ctag}</cs:getctag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>`;
    response.writeHead(207, headers).end(body);
    return;
  }
  if (request.method === 'REPORT') {
    const entries = objects.map(
      (text, i) =>
        `<d:response><d:href>${path}${i}.ics</d:href><d:propstat><d:prop><d:getetag>"${i}"</d:getetag><c:calendar-data>${escapeXml(text)}</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`,
    );
    response.writeHead(207, headers).end(`${head}${entries.join('')}</d:multistatus>`);
    return;
  }
  response.writeHead(405, { allow: 'PROPFIND, REPORT' }).end();
}
