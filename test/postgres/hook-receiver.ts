// A webhook receiver for the multi-instance tests: a node:http server on 127.0.0.1 that records
// every request, answers 200 after `delayMs`, and notices when the sender's connection went away
// before the answer was written (a sender killed mid-attempt).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HookRequest {
  webhookId: string;
  /** Date.now() when the request had fully arrived. */
  at: number;
  /** Date.now() when the answer was written completely, or null. */
  answeredAt: number | null;
  status: number | null;
  /** The sender's connection closed before an answer was written. */
  abandoned: boolean;
}

export class HookReceiver {
  readonly requests: HookRequest[] = [];
  /** How long to wait before answering requests that arrive from now on. */
  delayMs = 0;
  /** Answers waiting for their delay: cleared at close, so that none keeps the test process alive. */
  private readonly delayed = new Set<NodeJS.Timeout>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<HookReceiver> {
    const server = createServer();
    const receiver = new HookReceiver(server);
    server.on('request', (req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const record: HookRequest = {
          webhookId: String(req.headers['webhook-id'] ?? ''),
          at: Date.now(),
          answeredAt: null,
          status: null,
          abandoned: false,
        };
        receiver.requests.push(record);
        res.on('close', () => {
          if (!res.writableFinished) record.abandoned = true;
        });
        const answer = () => {
          if (res.destroyed) return;
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('ok', () => {
            record.answeredAt = Date.now();
            record.status = 200;
          });
        };
        if (receiver.delayMs > 0) {
          const timer = setTimeout(() => {
            receiver.delayed.delete(timer);
            answer();
          }, receiver.delayMs);
          receiver.delayed.add(timer);
        } else answer();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves once `count` requests have arrived. */
  async waitForRequests(count: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.requests.length < count) {
      if (Date.now() > deadline)
        throw new Error(`receiver got ${this.requests.length} of ${count} requests in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async close(): Promise<void> {
    for (const timer of this.delayed) clearTimeout(timer);
    this.delayed.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
