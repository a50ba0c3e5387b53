// The one way Slotwise reaches a URL its users give it (webhooks, calendar sources, and later
// CalDAV writes). Every request goes through the same steps: http or https only (webcal read as
// https, user info and fragment dropped); the address guard on every connection (guarded-http.ts:
// literal IPs and every resolved address, at connect time, so each redirect hop is checked too);
// the caller's deadline; an explicit redirect policy (none, or a bounded number with credentials
// kept within the first origin); decompression; bodies read under a byte cap. Failures are sorted
// by one classifier (`failureKind`), whose kinds carry no address, so each caller words them as it
// must (fixed phrases for calendars, the error's own text for the holder's webhook log).
import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { request, type Agent, type Dispatcher } from 'undici';
import { ForbiddenTargetError, guardedAgent, type AddressPolicy } from './guarded-http.js';

export interface SafeFetchOptions {
  allowPrivateTargets: boolean;
  /** The guard's address policy (default: every non-public address); tests narrow it. */
  forbiddenAddress?: AddressPolicy;
  userAgent: string;
  /** Ask for gzip or deflate and read bodies decoded; a body in any other coding is refused. */
  decompress: boolean;
  /** Connection settings (webhooks open one connection per attempt). */
  agent?: Omit<Agent.Options, 'connect'>;
}

export interface Outgoing {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** Follow at most `max` redirects; without a policy, a 3xx answer is returned as it is. */
export interface RedirectPolicy {
  max: number;
}

export interface Answer {
  status: number;
  /** Lower-case names, repeated fields joined with ", ". */
  headers: Record<string, string>;
  /** The fields as undici gives them (a repeated field as an array). */
  fields: Record<string, string | string[] | undefined>;
  body: Readable;
}

/** What went wrong, in words that name no address: the caller chooses the text. */
export type FailureKind =
  | 'stopped'
  | 'deadline'
  | 'stalled'
  | 'forbidden'
  | 'not-http'
  | 'redirect-not-http'
  | 'too-many-redirects'
  | 'unresolvable'
  | 'refused'
  | 'closed'
  | 'tls'
  | 'undecodable'
  | 'other';

type Refusal = 'not-http' | 'redirect-not-http' | 'too-many-redirects' | 'undecodable';

const REFUSALS: Record<Refusal, string> = {
  'not-http': 'the address is not http or https',
  'redirect-not-http': 'a redirect led to an address that is not http or https',
  'too-many-redirects': 'too many redirects',
  undecodable: 'the body could not be decoded',
};

/** A failure the pipeline itself decided on (its message is fixed: nothing from the URL). */
export class FetchRefused extends Error {
  constructor(readonly kind: Refusal) {
    super(REFUSALS[kind]);
    this.name = 'FetchRefused';
  }
}

/** One deadline for a whole exchange (every request, redirect and body), and the caller's stop. */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly timeout: AbortSignal;

  constructor(
    timeoutMs: number,
    private readonly caller?: AbortSignal,
  ) {
    this.timeout = AbortSignal.timeout(timeoutMs);
    this.signal = caller ? AbortSignal.any([caller, this.timeout]) : this.timeout;
  }

  get stopped(): boolean {
    return this.caller?.aborted ?? false;
  }

  get timedOut(): boolean {
    return this.timeout.aborted;
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export class SafeFetch {
  private readonly agent: Agent;
  private readonly dispatcher: Dispatcher;

  constructor(private readonly options: SafeFetchOptions) {
    this.agent = guardedAgent(options.allowPrivateTargets, options.agent, options.forbiddenAddress);
    // Bodies are decoded by `read` with node:zlib, not by undici's `interceptors.decompress`: undici
    // 7 calls that one experimental and prints an ExperimentalWarning to every server's stderr at
    // start (test/e2e/cli.test.ts holds a started server's output free of warnings).
    this.dispatcher = this.agent;
  }

  /**
   * One request and, under `redirects`, its redirects. Redirects are followed here rather than by
   * undici's `interceptors.redirect`, which stops a loop at the first repeated address with an
   * argument error (test/worker/calendar-fetcher.test.ts, "when redirects loop": five hops, then
   * "redirected more than 5 times"), also follows 300, and gives no say over a hop's scheme (a
   * `webcal:` Location is https here). It drops `authorization` across origins as we do.
   */
  async request(target: URL, outgoing: Outgoing, deadline: Deadline, redirects?: RedirectPolicy): Promise<Answer> {
    let url = httpUrl(target, 'not-http');
    let { method, body } = outgoing;
    const headers: Record<string, string> = { ...outgoing.headers, 'user-agent': this.options.userAgent };
    if (this.options.decompress) headers['accept-encoding'] = 'gzip, deflate';
    for (let hop = 0; ; hop++) {
      const response = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body: body ?? null,
        dispatcher: this.dispatcher,
        signal: deadline.signal,
      });
      const answer: Answer = {
        status: response.statusCode,
        headers: flatHeaders(response.headers),
        fields: response.headers,
        body: response.body,
      };
      const location = answer.headers.location;
      if (!redirects || !REDIRECT_STATUSES.has(answer.status) || !location) return answer;
      discard(answer.body);
      if (hop >= redirects.max) throw new FetchRefused('too-many-redirects');
      const next = redirectTarget(location, url);
      if (next.origin !== url.origin) delete headers.authorization;
      const rewritesToGet =
        answer.status === 303
          ? method !== 'GET' && method !== 'HEAD'
          : (answer.status === 301 || answer.status === 302) && method === 'POST';
      if (rewritesToGet) {
        method = 'GET';
        body = undefined;
      }
      url = next;
    }
  }

  /**
   * A body, read until it ends or passes `limit` bytes (after decoding), then dropped: `over`
   * says it was cut, `size` counts what was read. With `decompress`, a gzip, deflate or br body
   * is decoded as it is read (a corrupt one fails as `undecodable`), any other coding refused.
   */
  async read(answer: Answer, limit: number): Promise<{ bytes: Buffer; size: number; over: boolean }> {
    let body: AsyncIterable<Buffer> & Readable = answer.body as AsyncIterable<Buffer> & Readable;
    if (this.options.decompress) {
      const coding = (answer.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
      const decoder = coding === 'identity' ? undefined : DECODERS[coding];
      if (coding !== 'identity' && !decoder) {
        discard(answer.body);
        throw new FetchRefused('undecodable');
      }
      if (decoder) {
        const decoded = decoder();
        // A failing source ends the decoder with its error, which the loop below throws.
        pipeline(answer.body, decoded, () => undefined);
        body = decoded;
      }
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        discard(body);
        if (body !== answer.body) discard(answer.body);
        return { bytes: Buffer.concat(chunks), size, over: true };
      }
    }
    return { bytes: Buffer.concat(chunks), size, over: false };
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** The decoders of the codings a calendar read asks for (`accept-encoding`) or a server may send anyway. */
const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** The URL as http(s), webcal read as https, without user info or fragment; throws on anything else. */
export function httpUrl(url: URL, failure: Refusal = 'not-http'): URL {
  if (url.protocol === 'webcal:' || url.protocol === 'webcals:') {
    // A special-scheme change is refused by the URL setter, so parse anew.
    return httpUrl(new URL(`https:${url.href.slice(url.protocol.length)}`), failure);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused(failure);
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  copy.hash = '';
  return copy;
}

/** Where a redirect leads, as http(s); an address that does not parse is refused like another scheme. */
function redirectTarget(location: string, from: URL): URL {
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    throw new FetchRefused('redirect-not-http');
  }
  return httpUrl(target, 'redirect-not-http');
}

/** Drops a body unread. Destroying undici's body emits an abort error: nobody needs to hear it. */
export function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/** What went wrong with an exchange, wherever along the error's cause chain it is said. */
export function failureKind(error: unknown, deadline: Deadline): FailureKind {
  if (deadline.stopped) return 'stopped';
  if (deadline.timedOut) return 'deadline';
  for (const at of causes(error)) {
    if (at instanceof FetchRefused) return at.kind;
    if (at instanceof ForbiddenTargetError) return 'forbidden';
  }
  const code = codeOf(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'unresolvable';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') {
    return 'closed';
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return 'stalled';
  }
  if (code && (code.startsWith('ERR_TLS') || /CERT|SELF_SIGNED|SSL/.test(code))) return 'tls';
  if (code && code.startsWith('Z_')) return 'undecodable';
  return 'other';
}

/**
 * The error's own words with its cause's and its code ("ECONNREFUSED: connect ECONNREFUSED …"),
 * for a log its owner reads: the guard's refusals say only the kind of address.
 */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = (error as { code?: string }).code;
  const text =
    cause instanceof Error && cause.message !== error.message ? `${error.message}: ${cause.message}` : error.message;
  return code && !text.includes(code) ? `${code}: ${text}` : text;
}

/** The error and its causes, outermost first (at most 8: a cause chain can be a cycle). */
function* causes(error: unknown): Generator<Error> {
  for (let at = error, depth = 0; at instanceof Error && depth < 8; at = (at as { cause?: unknown }).cause, depth++) {
    yield at;
  }
}

/** The first `code` along the error's cause chain (node's system errors, undici's, zlib's). */
function codeOf(error: unknown): string | null {
  for (const at of causes(error)) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return null;
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') flat[name.toLowerCase()] = value;
    else if (Array.isArray(value) && value.length > 0) flat[name.toLowerCase()] = value.join(', ');
  }
  return flat;
}
