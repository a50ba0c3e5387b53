// A real webhook receiver for tests: a node:http server on 127.0.0.1 that records every request
// and answers from a per-test script (status, headers, body, delay, hang-up), and can be taken
// down and brought back up on the same port.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Date.now() when the request (headers and body) had fully arrived. */
  at: number;
  /** Set once the scripted answer was written completely. */
  answered: boolean;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Record the request, then destroy the socket without answering. */
  hangUp?: boolean;
  /** Send the status line and headers and part of the body, then never finish. */
  stallBody?: boolean;
}

export class Receiver {
  readonly requests: Received[] = [];
  /** Answers for the next requests, in order; `fallback` once it is used up. */
  private queue: Reply[] = [];
  fallback: Reply = { status: 200, body: 'ok' };
  private readonly sockets = new Set<Socket>();
  private waiters: Array<() => void> = [];
  private server: Server;

  private constructor(
    public port: number,
    server: Server,
  ) {
    this.server = server;
  }

  static async start(port = 0): Promise<Receiver> {
    const receiver = new Receiver(0, createServer());
    await receiver.listen(port);
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  /** Queues answers for the next requests. */
  script(...replies: Reply[]): void {
    this.queue.push(...replies);
  }

  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 10_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.requests.length < count) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`receiver on ${this.port} got ${this.requests.length} of ${count} requests in ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.requests.slice(0, count);
  }

  /** Stops listening and drops open connections: the port refuses connections until `up()`. */
  async down(): Promise<void> {
    const server = this.server;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
  }

  /** Listens on the same port again. */
  async up(): Promise<void> {
    this.server = createServer();
    await this.listen(this.port);
  }

  async close(): Promise<void> {
    if (this.server.listening) await this.down();
  }

  private listen(port: number): Promise<void> {
    const server = this.server;
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    server.on('request', (request, response) => void this.handle(request, response));
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        this.port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers[name] = value;
      else if (Array.isArray(value)) headers[name] = value.join(', ');
    }
    const received: Received = {
      method: request.method ?? '',
      path: request.url ?? '',
      headers,
      body: Buffer.concat(chunks).toString('utf8'),
      at: Date.now(),
      answered: false,
    };
    this.requests.push(received);
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();

    const reply = this.queue.shift() ?? this.fallback;
    if (reply.hangUp) {
      request.socket.destroy();
      return;
    }
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (request.socket.destroyed) return;
    response.on('finish', () => (received.answered = true));
    response.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
    if (reply.stallBody) {
      response.write('partial ');
      return;
    }
    response.end(reply.body ?? '');
  }
}

/**
 * A TCP port that accepts connections and never says a word: the receiver that is "up" but
 * hangs, so every attempt to it runs into the timeout.
 */
export class BlackHole {
  connections = 0;
  /** Connections over which a request arrived (the rest were opened and left idle). */
  requests = 0;
  /** The most connections carrying a request that were open at the same time: attempts in flight. */
  mostRequestsAtOnce = 0;
  private readonly carrying = new Set<Socket>();
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: TcpServer,
    public readonly port: number,
  ) {}

  static async start(): Promise<BlackHole> {
    const server = createTcpServer();
    const port = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
    const hole = new BlackHole(server, port);
    server.on('connection', (socket) => {
      hole.connections++;
      hole.sockets.add(socket);
      socket.once('data', () => {
        hole.requests++;
        hole.carrying.add(socket);
        hole.mostRequestsAtOnce = Math.max(hole.mostRequestsAtOnce, hole.carrying.size);
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        hole.sockets.delete(socket);
        hole.carrying.delete(socket);
      });
    });
    return hole;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
  }
}
