// The HTTP settings (connection limits, proxies, the public address, embedding origins), read
// and checked for config.ts.
import { readInteger } from './config-values.js';
import type { ConnectionLimits } from './http/connection-limits.js';

/** What Fastify's `trustProxy` takes: whether, how many hops, or which addresses (`TRUST_PROXY`). */
export type TrustProxy = boolean | number | string;

/**
 * The defaults, as nginx, Node and Fastify choose theirs but tighter where an API client needs no
 * slack (docs/api.md, "Limits", says why each). `maxConnectionsPerAddress` is 0 (off) instead when
 * TRUST_PROXY is set: the connections then come from the proxy, not from the clients.
 */
export const DEFAULT_HTTP_LIMITS: Readonly<ConnectionLimits> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  socketTimeoutMs: 60_000,
  maxConnections: 1024,
  maxConnectionsPerAddress: 64,
};

/** The connection limits; a request timeout shorter than the headers timeout is a problem (Node refuses it). */
export function readConnectionLimits(
  env: NodeJS.ProcessEnv,
  trustProxy: TrustProxy,
  problems: string[],
): ConnectionLimits {
  const defaults = DEFAULT_HTTP_LIMITS;
  const timeout = { min: 100, max: 3_600_000 };
  const headersTimeoutMs = readInteger(env, 'HTTP_HEADERS_TIMEOUT_MS', defaults.headersTimeoutMs, timeout, problems);
  const requestTimeoutMs = readInteger(env, 'HTTP_REQUEST_TIMEOUT_MS', defaults.requestTimeoutMs, timeout, problems);
  if (headersTimeoutMs > requestTimeoutMs) {
    problems.push(
      `HTTP_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs}): the request timeout includes the headers`,
    );
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: readInteger(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', defaults.keepAliveTimeoutMs, timeout, problems),
    socketTimeoutMs: readInteger(
      env,
      'HTTP_SOCKET_TIMEOUT_MS',
      defaults.socketTimeoutMs,
      { min: 0, max: 3_600_000 },
      problems,
    ),
    maxConnections: readInteger(
      env,
      'HTTP_MAX_CONNECTIONS',
      defaults.maxConnections,
      { min: 1, max: 1_000_000 },
      problems,
    ),
    maxConnectionsPerAddress: readInteger(
      env,
      'HTTP_MAX_CONNECTIONS_PER_ADDRESS',
      trustProxy === false ? defaults.maxConnectionsPerAddress : 0,
      { min: 0, max: 1_000_000 },
      problems,
    ),
  };
}

/** PROXY_PRESETS of proxy-addr, which Fastify's `trustProxy` uses for a list. */
const PROXY_PRESETS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `TRUST_PROXY`: unset or `false` (the socket's address is the client's), `true` (the left-most
 * forwarded address), a number of proxy hops, or a comma-separated list of proxy addresses, CIDR
 * ranges and the presets loopback, linklocal, uniquelocal.
 */
export function readTrustProxy(env: NodeJS.ProcessEnv, problems: string[]): TrustProxy {
  const value = env.TRUST_PROXY?.trim();
  if (value === undefined || value === '' || value.toLowerCase() === 'false') return false;
  if (value.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const items = value.split(',').map((item) => item.trim());
  if (items.every((item) => PROXY_PRESETS.has(item) || /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(item)))
    return items.join(',');
  problems.push(
    `TRUST_PROXY must be true, false, a number of hops, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal; got "${env.TRUST_PROXY}"`,
  );
  return false;
}

/** An absolute http(s) URL with no query or fragment (a path is kept: pages may live under one); no trailing slash. */
export function readPublicBaseUrl(env: NodeJS.ProcessEnv, problems: string[]): string | undefined {
  const value = env.PUBLIC_BASE_URL?.trim();
  if (value === undefined || value === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search !== '' || url.hash !== '' || url.username) {
    problems.push(
      `PUBLIC_BASE_URL must be an absolute http or https URL without query, fragment or credentials, e.g. https://book.example.com; got "${env.PUBLIC_BASE_URL}"`,
    );
    return undefined;
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/**
 * Origins (`https://shop.example.com`), separated by commas or spaces. Exact origins only, no
 * wildcards: each is written into a Content-Security-Policy header and is the only window an
 * embedded page tells about a booking.
 */
export function readEmbedOrigins(env: NodeJS.ProcessEnv, problems: string[]): string[] {
  const origins: string[] = [];
  for (const value of (env.PUBLIC_EMBED_ORIGINS ?? '').split(/[\s,]+/).filter((part) => part !== '')) {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    // Host names, IPv4 and bracketed IPv6 only: the URL parser lets `*` and `;` through in a host,
    // and either would change the meaning of the header the origin is written into.
    const hostname = url?.hostname ?? '';
    const plainHost = /^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(hostname) || /^\[[0-9a-f:.]+\]$/.test(hostname);
    if (
      !url ||
      !plainHost ||
      !['http:', 'https:'].includes(url.protocol) ||
      url.origin !== value.replace(/\/$/, '').toLowerCase()
    ) {
      problems.push(
        `PUBLIC_EMBED_ORIGINS must list origins (scheme, host and port only) separated by commas, e.g. https://shop.example.com,https://www.example.com; "${value}" is not one`,
      );
      continue;
    }
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  return origins;
}
