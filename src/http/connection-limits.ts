import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long a connection may take and how many may be open (docs/api.md, "Limits"). A slow client
 * costs the server a socket, not a thread, so what a slowloris client can exhaust is the
 * connections: the timeouts bound how long each one is held, the per-address cap bounds how many
 * one client holds, and the overall cap keeps the process within its file descriptors.
 */
export interface ConnectionLimits {
  /** From a request's first byte (or the connection's opening) until its headers are in; then 408 and closed. */
  headersTimeoutMs: number;
  /** From a request's first byte until its whole body is in; then 408 and closed. At least `headersTimeoutMs`. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed this long (plus Node's 1 s margin) after its last answer. */
  keepAliveTimeoutMs: number;
  /** A connection on which no byte moves either way for this long is closed; 0 = off. */
  socketTimeoutMs: number;
  /** Connections open at once; more are closed as they arrive. */
  maxConnections: number;
  /** Connections open at once from one socket address; more are closed as they arrive; 0 = off. */
  maxConnectionsPerAddress: number;
}

/** Why a connection was cut short: past a cap as it arrived, or its request too slow (408). */
export type ConnectionCut = 'max-connections' | 'per-address' | 'request-timeout';

/**
 * The Fastify options that carry the timeouts. Node checks the headers and request timeouts on a
 * timer (every 30 s by default, so a 10 s timeout would really be up to 40 s); here every tenth of
 * the headers timeout, at most once a second, so a slow request is cut within 10 % of its bound.
 */
export function timeoutOptions(limits: ConnectionLimits) {
  const checkEveryMs = Math.max(10, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 10)));
  return {
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: checkEveryMs,
    },
    // Fastify sets these on the server after creating it. It reads 0 as "its default" (72 s for
    // keep-alive); only the socket timeout can be 0 here, and 0 means off to Fastify and Node alike.
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: limits.socketTimeoutMs,
  };
}

/**
 * Caps the connections of `server`: all together (Node's `maxConnections`, which closes a
 * connection past it as it is accepted) and per socket address (closed here as it arrives, before
 * it is read). `observe` hears of every connection cut short, including the requests Node answers
 * 408 for taking too long.
 */
export function capConnections(server: Server, limits: ConnectionLimits, observe: (cut: ConnectionCut) => void): void {
  server.maxConnections = limits.maxConnections;
  server.on('drop', () => observe('max-connections'));
  server.on('clientError', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') observe('request-timeout');
  });
  const perAddress = limits.maxConnectionsPerAddress;
  if (perAddress <= 0) return;
  // At most one entry per open connection, so bounded by `maxConnections`.
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return; // already closed
    const count = open.get(address) ?? 0;
    if (count >= perAddress) {
      observe('per-address');
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
