// The key cache (src/app/key-cache.ts): keys reused while nothing concerning their holder was
// committed, and read once, not once per request, when many requests ask at the same moment.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyCache } from '../../src/app/key-cache.js';
import type { ApiKeyReads } from '../../src/app/ports/store.js';
import { createHarness, type Harness } from '../support/harness.js';

let h: Harness;
let reads: number;
let cache: KeyCache;

beforeEach(async () => {
  h = await createHarness();
  reads = 0;
  const store = h.store.apiKeys;
  const counting: ApiKeyReads = {
    ...store,
    findByDigest: (digest) => {
      reads++;
      return store.findByDigest(digest);
    },
  };
  cache = new KeyCache(counting, h.storage.changes);
  // PostgreSQL: reuse starts once the change poll has answered.
  await expect.poll(() => h.storage.changes.mark(), { timeout: 5_000, interval: 5 }).not.toBeNull();
});

afterEach(async () => {
  await h.close();
});

describe('key cache', () => {
  it('when 64 requests with one key arrive after a commit, then the key is read once and every request gets it', async () => {
    const token = await h.key('alice');
    await cache.find(token);
    await h.key('bob'); // a commit of this process: every key is read again
    reads = 0;
    const found = await Promise.all(Array.from({ length: 64 }, () => cache.find(token)));
    expect(reads).toBe(1);
    expect(new Set(found.map((key) => key?.id)).size).toBe(1);
    expect(found[0]?.holder?.name).toBe('alice');
  });

  it('when a commit comes while a read is in flight, then a request after it reads again', async () => {
    const token = await h.key('alice');
    const first = cache.find(token);
    await h.key('bob');
    const second = cache.find(token);
    await Promise.all([first, second]);
    expect(reads).toBe(2);
  });

  it('when the read fails, then the requests waiting for it fail with it, and the next one reads again', async () => {
    const token = await h.key('alice');
    let failing = true;
    const store = h.store.apiKeys;
    const flaky = new KeyCache(
      {
        ...store,
        findByDigest: (digest) => {
          reads++;
          return failing ? Promise.reject(new Error('the database is gone')) : store.findByDigest(digest);
        },
      },
      h.storage.changes,
    );
    const waiting = [flaky.find(token), flaky.find(token)];
    for (const request of waiting) await expect(request).rejects.toThrow('the database is gone');
    expect(reads).toBe(1);
    failing = false;
    expect((await flaky.find(token))?.holder?.name).toBe('alice');
    expect(reads).toBe(2);
  });
});
