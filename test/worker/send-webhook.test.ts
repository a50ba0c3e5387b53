import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RESPONSE_EXCERPT_BYTES, WebhookSender } from '../../src/worker/send-webhook.js';
import { BlackHole, Receiver } from '../support/webhook-receiver.js';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const PAYLOAD = JSON.stringify({
  type: 'webhook.test',
  timestamp: '2026-01-01T00:00:00.000Z',
  data: { hello: 'wörld' },
});

let receiver: Receiver;
let senders: WebhookSender[] = [];

function sender(options: { allowPrivateTargets: boolean; timeoutMs?: number }): WebhookSender {
  const made = new WebhookSender({
    timeoutMs: options.timeoutMs ?? 5_000,
    allowPrivateTargets: options.allowPrivateTargets,
  });
  senders.push(made);
  return made;
}

const delivery = (url: string, eventId = 'msg_test_1') => ({ url, secret: SECRET, eventId, payload: PAYLOAD });

beforeEach(async () => {
  receiver = await Receiver.start();
});

afterEach(async () => {
  // close() waits for requests in flight; a broken timeout must fail its test, not hang this hook.
  await Promise.race([
    Promise.all(senders.map((s) => s.close())),
    new Promise((resolve) => setTimeout(resolve, 1_000)),
  ]);
  senders = [];
  await receiver.close();
});

describe('WebhookSender: SSRF guard at connect time', () => {
  it('when private targets are not allowed and the URL names localhost, then the lookup refuses the address and nothing is sent', async () => {
    const result = await sender({ allowPrivateTargets: false }).send(
      delivery(`http://localhost:${receiver.port}/hook`),
      new Date(),
    );
    expect(result.statusCode).toBeNull();
    // The delivery log is the holder's to read: it says what kind of address, never which one
    // the name resolved to (internal DNS is not read out to whoever registers a name).
    expect(result.error).toMatch(/refused to connect to a loopback address/);
    expect(result.error).not.toMatch(/127\.0\.0\.1|::1/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.requests).toHaveLength(0);
  });

  it.each([['127.0.0.1'], ['[::ffff:127.0.0.1]'], ['2130706433'], ['0x7f.1']])(
    'when private targets are not allowed and the URL host is the literal %s, then it is refused before connecting',
    async (host) => {
      const result = await sender({ allowPrivateTargets: false }).send(
        delivery(`http://${host}:${receiver.port}/hook`),
        new Date(),
      );
      expect(result.statusCode).toBeNull();
      expect(result.error).toMatch(/refused to connect to a loopback address/);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(receiver.requests).toHaveLength(0);
    },
  );
});

describe('WebhookSender: what arrives', () => {
  it('when private targets are allowed, then the POST arrives with Standard Webhooks headers that verify with the secret', async () => {
    const sentAt = new Date();
    const result = await sender({ allowPrivateTargets: true }).send(delivery(receiver.url, 'msg_abc'), sentAt);
    expect(result).toMatchObject({ statusCode: 200, error: null, responseExcerpt: 'ok' });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    const [request] = await receiver.waitFor(1);
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/hook');
    expect(request!.headers['content-type']).toMatch(/^application\/json/);
    expect(request!.headers['webhook-id']).toBe('msg_abc');
    expect(request!.headers['webhook-timestamp']).toBe(String(Math.floor(sentAt.getTime() / 1000)));
    expect(request!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
    expect(request!.body).toBe(PAYLOAD);
    expect(new Webhook(SECRET).verify(request!.body, request!.headers)).toEqual(JSON.parse(PAYLOAD));
  });

  it('when the URL names localhost and private targets are allowed, then the request arrives', async () => {
    const result = await sender({ allowPrivateTargets: true }).send(
      delivery(`http://localhost:${receiver.port}/hook`),
      new Date(),
    );
    expect(result.statusCode).toBe(200);
    expect(receiver.requests).toHaveLength(1);
  });

  it('when the body is altered or another secret is used, then the signature does not verify', async () => {
    await sender({ allowPrivateTargets: true }).send(delivery(receiver.url), new Date());
    const [request] = await receiver.waitFor(1);
    expect(() => new Webhook(SECRET).verify(`${request!.body} `, request!.headers)).toThrow();
    expect(() =>
      new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(request!.body, request!.headers),
    ).toThrow();
  });

  it('when the receiver answers with an error status and Retry-After, then both are returned', async () => {
    receiver.script({ status: 503, headers: { 'retry-after': '7' }, body: 'busy' });
    const result = await sender({ allowPrivateTargets: true }).send(delivery(receiver.url), new Date());
    expect(result).toMatchObject({ statusCode: 503, retryAfter: '7', error: null, responseExcerpt: 'busy' });
  });

  it('when the receiver answers 302, then 302 is returned and the Location is not followed', async () => {
    const target = await Receiver.start();
    try {
      receiver.script({ status: 302, headers: { location: target.url } });
      const result = await sender({ allowPrivateTargets: true }).send(delivery(receiver.url), new Date());
      expect(result.statusCode).toBe(302);
      expect(result.error).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(receiver.requests).toHaveLength(1);
      expect(target.requests).toHaveLength(0);
    } finally {
      await target.close();
    }
  });

  it('when the response body is large, then the excerpt is its first 4096 bytes', async () => {
    const body = Array.from({ length: 50_000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    receiver.script({ status: 500, body });
    const result = await sender({ allowPrivateTargets: true }).send(delivery(receiver.url), new Date());
    expect(RESPONSE_EXCERPT_BYTES).toBe(4096);
    expect(result.statusCode).toBe(500);
    expect(Buffer.byteLength(result.responseExcerpt!, 'utf8')).toBe(4096);
    expect(result.responseExcerpt).toBe(body.slice(0, 4096));
  });

  it('when the response body holds NUL bytes and bytes that are not UTF-8, then the excerpt shows each as U+FFFD and holds no NUL', async () => {
    receiver.script({ status: 500, body: Buffer.from([0x61, 0x00, 0x62, 0xff, 0x63, 0x00]) });
    const result = await sender({ allowPrivateTargets: true }).send(delivery(receiver.url), new Date());
    expect(result.statusCode).toBe(500);
    expect(result.responseExcerpt).toBe('a\uFFFDb\uFFFDc\uFFFD');
  });

  it('when the response body is empty, then the excerpt is null', async () => {
    receiver.script({ status: 204, body: '' });
    const result = await sender({ allowPrivateTargets: true }).send(delivery(receiver.url), new Date());
    expect(result).toMatchObject({ statusCode: 204, responseExcerpt: null, error: null });
  });

  it(
    'when the receiver never answers, then the attempt ends at the timeout with error "timed out"',
    { timeout: 10_000 },
    async () => {
      const hole = await BlackHole.start();
      try {
        const result = await sender({ allowPrivateTargets: true, timeoutMs: 300 }).send(delivery(hole.url), new Date());
        expect(result.statusCode).toBeNull();
        expect(result.error).toBe('timed out');
        expect(result.durationMs).toBeGreaterThanOrEqual(280);
        // Room for a loaded machine; without the timeout the attempt would never end.
        expect(result.durationMs).toBeLessThan(3_000);
        expect(hole.connections).toBe(1);
      } finally {
        await hole.close();
      }
    },
  );

  it(
    'when the receiver sends headers but stalls the body past the timeout, then the attempt still ends at the timeout',
    { timeout: 10_000 },
    async () => {
      receiver.script({ status: 200, stallBody: true });
      const started = Date.now();
      const result = await sender({ allowPrivateTargets: true, timeoutMs: 300 }).send(
        delivery(receiver.url),
        new Date(),
      );
      expect(result.statusCode).toBeNull();
      expect(result.error).toBe('timed out');
      // Room for a loaded machine; a timeout that ended with the headers would leave it stalled for ever.
      expect(Date.now() - started).toBeLessThan(3_000);
    },
  );

  it('when nothing listens on the port, then the error names the refused connection', async () => {
    const port = receiver.port;
    await receiver.down();
    const result = await sender({ allowPrivateTargets: true }).send(
      delivery(`http://127.0.0.1:${port}/hook`),
      new Date(),
    );
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/ECONNREFUSED/);
  });
});
