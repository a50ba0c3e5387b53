import { describe, expect, it } from 'vitest';
import { OutboxLoop, type OutboxWork } from '../../src/worker/outbox-loop.js';

/** Work whose due jobs are a list the test fills; each claim takes what is due. */
function listWork() {
  const due: string[] = [];
  const ran: string[] = [];
  let claims = 0;
  const work: OutboxWork<string> = {
    name: 'test jobs',
    async claim(free) {
      claims += 1;
      const run = due.splice(0, free);
      return { run, claimed: run.length };
    },
    idOf: (job) => job,
    async attempt(job) {
      ran.push(job);
    },
  };
  return { work, due, ran, claims: () => claims };
}

const silent = { warn() {}, error() {} };

async function until(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('OutboxLoop', () => {
  it('claims again after a restart that stopped it while a wake was waiting for its delay', async () => {
    const { work, due, ran } = listWork();
    // A poll far off: only a wake can make the loop claim within the test.
    const loop = new OutboxLoop(work, { concurrency: 4, pollIntervalMs: 60_000, wakeDelayMs: 50 }, silent);
    loop.start();
    await new Promise((resolve) => setTimeout(resolve, 80)); // the start's own claim has run
    loop.wake(); // due in 50 ms
    await loop.stop(100); // stopped before it fires
    loop.start();
    due.push('after-restart');
    loop.wake();
    await until(() => ran.includes('after-restart'));
    await loop.stop(100);
  });

  it('runs jobs a commit woke it for, and nothing after stop', async () => {
    const { work, due, ran, claims } = listWork();
    const loop = new OutboxLoop(work, { concurrency: 2, pollIntervalMs: 60_000, wakeDelayMs: 0 }, silent);
    loop.start();
    due.push('a', 'b', 'c');
    loop.wake();
    await until(() => ran.length === 3);
    expect(ran.sort()).toEqual(['a', 'b', 'c']);
    await loop.stop(100);
    const claimsAtStop = claims();
    due.push('d');
    loop.wake();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ran).not.toContain('d');
    expect(claims()).toBe(claimsAtStop);
  });
});
