import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/**
 * How busy this process's event loop was since the last look: the share of the time it spent
 * running code (`performance.eventLoopUtilization`), not waiting for I/O. At saturation the
 * requests wait for one another, and any other work on the loop is taken from them.
 */
export class EventLoopLoad {
  private last: EventLoopUtilization = performance.eventLoopUtilization();

  constructor(
    /** From this share on, the loop counts as saturated. */
    private readonly saturatedFrom: number,
  ) {}

  saturated(): boolean {
    const now = performance.eventLoopUtilization();
    const since = performance.eventLoopUtilization(now, this.last);
    this.last = now;
    return since.utilization >= this.saturatedFrom;
  }
}

/**
 * Background work that gives way to a saturated event loop, for at most `maxWaitMs` at a time: a
 * burst of requests is answered first and the work done after it; under a saturation that lasts,
 * the work waits no longer and takes its share.
 */
export class GiveWay {
  private waitingSince: number | undefined;

  constructor(
    private readonly saturated: () => boolean,
    private readonly maxWaitMs: number,
  ) {}

  /** Whether the work should wait now. */
  waitNow(now: number): boolean {
    if (!this.saturated()) {
      this.waitingSince = undefined;
      return false;
    }
    this.waitingSince ??= now;
    return now - this.waitingSince < this.maxWaitMs;
  }
}
