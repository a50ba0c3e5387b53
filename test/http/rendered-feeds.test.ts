// The bounds of the calendar files' two per-process structures: the written feeds (bytes, least
// recently used out first) and the per-link request counts (links per window).
import { describe, expect, it } from 'vitest';
import { PerMinuteLimit } from '../../src/http/per-minute-limit.js';
import { RenderedFeeds } from '../../src/http/rendered-feeds.js';

const feed = (version: string, bytes: number) => ({ version, body: 'x'.repeat(bytes) });

describe('RenderedFeeds', () => {
  it('when feeds pass the byte bound, then the least recently used go first, and one larger than the bound is not kept', () => {
    const feeds = new RenderedFeeds(100);
    feeds.set('a', feed('1', 40));
    feeds.set('b', feed('1', 40));
    expect(feeds.get('a', '1')).toBeDefined();
    feeds.set('c', feed('1', 40));
    expect(feeds.get('b', '1')).toBeUndefined();
    expect(feeds.get('a', '1')).toBeDefined();
    expect(feeds.get('c', '1')).toBeDefined();
    feeds.set('d', feed('1', 101));
    expect(feeds.get('d', '1')).toBeUndefined();
    // A holder's new version replaces its old one, and frees its bytes.
    feeds.set('a', feed('2', 60));
    expect(feeds.get('a', '1')).toBeUndefined();
    expect(feeds.get('a', '2')).toBeDefined();
    expect(feeds.get('c', '1')).toBeDefined();
  });
});

describe('PerMinuteLimit, per link', () => {
  it('when more links than its bound are fetched in a minute, then the ones past it go uncounted until the next minute', () => {
    let now = 0;
    const limit = new PerMinuteLimit(1, () => now, 'skip', 2);
    for (const link of ['a', 'b', 'c']) limit.record(link);
    expect(limit.retryAfterSeconds('a')).toBe(60);
    expect(limit.retryAfterSeconds('b')).toBe(60);
    expect(limit.retryAfterSeconds('c')).toBe(0);
    now = 59_500;
    expect(limit.retryAfterSeconds('a')).toBe(1);
    now = 60_000;
    expect(limit.retryAfterSeconds('a')).toBe(0);
  });
});
