// The housekeeper's rounds: batches until one comes back short, never more than the round allows,
// with the retention measured back from the clock; a failing round is logged and the next tries again.
import { describe, expect, it } from 'vitest';
import type { Housekeeping, PurgeRequest } from '../../src/app/ports/housekeeping.js';
import { Housekeeper } from '../../src/worker/housekeeper.js';

const NOW = Date.parse('2026-03-02T00:00:00Z');
const DAY = 86_400_000;
const SETTINGS = { retentionDays: 30, intervalMs: 60_000, batchSize: 10, maxBatchesPerRound: 4 };

/** Housekeeping with `backlog` rows to remove, `batchSize` at a time. */
function backlogOf(backlog: number) {
  const requests: PurgeRequest[] = [];
  let left = backlog;
  const housekeeping: Housekeeping = {
    async purge(request) {
      requests.push(request);
      const removed = Math.min(left, request.limit);
      left -= removed;
      return removed;
    },
  };
  return { housekeeping, requests, left: () => left };
}

const silent = { warn: () => {}, error: () => {} };

describe('Housekeeper', () => {
  it('when the backlog is smaller than a batch, then one batch removes it, with the retention counted back from now', async () => {
    const { housekeeping, requests } = backlogOf(7);
    const removed = await new Housekeeper(housekeeping, SETTINGS, () => NOW, silent).runRound();
    expect(removed).toBe(7);
    expect(requests).toEqual([{ finishedBefore: NOW - 30 * DAY, now: NOW, limit: 10 }]);
  });

  it('when the backlog is larger than a round allows, then the round stops at its batches and the next round goes on', async () => {
    const backlog = backlogOf(95);
    const keeper = new Housekeeper(backlog.housekeeping, SETTINGS, () => NOW, silent);
    expect(await keeper.runRound()).toBe(40);
    expect(backlog.requests).toHaveLength(4);
    await keeper.runRound();
    expect(await keeper.runRound()).toBe(15);
    expect(backlog.left()).toBe(0);
  });

  it('when a batch fails, then the round ends with a warning and does not throw', async () => {
    const warnings: string[] = [];
    const failing: Housekeeping = {
      async purge() {
        throw new Error('database is locked');
      },
    };
    const keeper = new Housekeeper(failing, SETTINGS, () => NOW, {
      warn: (_o, message) => warnings.push(message),
      error: () => {},
    });
    expect(await keeper.runRound()).toBe(0);
    expect(warnings).toHaveLength(1);
  });
});
