import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createApiKey } from '../../src/app/api-keys.js';
import type { AppContext } from '../../src/app/context.js';
import { buildApp } from '../../src/http/build-app.js';
import type { Scope, Store } from '../../src/storage/store.js';
import { openTestStore, type TestStore } from './databases.js';

/** A settable clock: tests move time instead of waiting for it. */
export class TestClock {
  constructor(public current: number) {}
  now = (): number => this.current;
  set(iso: string | number): void {
    this.current = typeof iso === 'number' ? iso : Date.parse(iso);
  }
}

export interface Harness {
  app: FastifyInstance;
  store: Store;
  /** Rows of a table as stored, and the URL a spawned server would use for the same data. */
  database: Pick<TestStore, 'rows' | 'databaseUrl'>;
  clock: TestClock;
  context: AppContext;
  dir: string;
  /** Creates a key for `holder` (the holder too, on first use) and returns the bearer token. */
  key(holder: string, scopes?: Scope[]): Promise<string>;
  /** `app.inject` with the bearer token and JSON body filled in. */
  request(options: InjectOptions & { token?: string; json?: unknown }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** A real app on an empty real store: a SQLite file in a fresh temporary directory, or PostgreSQL (see databases.ts). */
export async function createHarness(
  options: { now?: string; allowPrivateWebhookTargets?: boolean } = {},
): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'slotwise-test-'));
  const testStore = await openTestStore(dir);
  const store = testStore.store;
  const clock = new TestClock(Date.parse(options.now ?? '2026-01-01T00:00:00Z'));
  const context: AppContext = {
    store,
    now: clock.now,
    webhooks: { allowPrivateTargets: options.allowPrivateWebhookTargets ?? false },
  };
  const app = await buildApp(context);
  return {
    app,
    store,
    database: testStore,
    clock,
    context,
    dir,
    async key(holder, scopes = ['read', 'write']) {
      const { token } = await createApiKey(context, { holderName: holder, scopes, expiresAt: null });
      return token;
    },
    request({ token, json, headers, ...rest }) {
      return app.inject({
        ...rest,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(json !== undefined ? { payload: JSON.stringify(json) } : {}),
      });
    },
    async close() {
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
