import { describe, expect, it } from 'vitest';
import { BufferPool } from '../../src/http/buffer-pool.js';

describe('BufferPool', () => {
  it('when a buffer is given back, then the next take that fits gets that same buffer', () => {
    const pool = new BufferPool(1024, 4);
    const first = pool.take(5000);
    expect(first.length).toBeGreaterThanOrEqual(5000);
    pool.give(first);
    expect(pool.take(4000)).toBe(first);
    // Taken: a second take allocates afresh.
    expect(pool.take(4000)).not.toBe(first);
  });

  it('when the size is below the minimum, then the buffer is never pooled', () => {
    const pool = new BufferPool(1024, 4);
    const small = pool.take(100);
    pool.give(small);
    expect(pool.take(100)).not.toBe(small);
  });

  it('when a larger size is asked than any pooled buffer holds, then a new one is made and the pooled one stays', () => {
    const pool = new BufferPool(1024, 4);
    const held = pool.take(2000);
    pool.give(held);
    expect(pool.take(100_000).length).toBeGreaterThanOrEqual(100_000);
    expect(pool.take(2000)).toBe(held);
  });

  it('when more buffers come back than the pool keeps, then the extra ones are dropped', () => {
    const pool = new BufferPool(1024, 1);
    const [a, b] = [pool.take(2000), pool.take(2000)];
    pool.give(a);
    pool.give(b);
    expect(pool.take(2000)).toBe(a);
    expect(pool.take(2000)).not.toBe(b);
  });
});
