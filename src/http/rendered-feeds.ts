/** A holder's calendar feed as last written, for the version of what it shows. */
export interface RenderedFeed {
  /** `FeedSubject.version`: the feed is current while this is unchanged. */
  version: string;
  body: string;
}

/**
 * The holders' calendar feeds as last written, so that calendar apps polling an unchanged feed
 * (every few minutes, each subscriber) cost two small reads, not its bookings read and written
 * again. One per holder, bounded by the bytes of all bodies together; the least recently used
 * goes first.
 */
export class RenderedFeeds {
  private readonly feeds = new Map<string, RenderedFeed & { bytes: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The holder's feed written for `version`; undefined when none is kept or it is of another version. */
  get(holderId: string, version: string): RenderedFeed | undefined {
    const feed = this.feeds.get(holderId);
    if (feed?.version !== version) return undefined;
    // Moved to the back: the most recently used.
    this.feeds.delete(holderId);
    this.feeds.set(holderId, feed);
    return feed;
  }

  set(holderId: string, feed: RenderedFeed): void {
    this.delete(holderId);
    const bytes = Buffer.byteLength(feed.body);
    if (bytes > this.maxBytes) return;
    this.feeds.set(holderId, { ...feed, bytes });
    this.bytes += bytes;
    for (const oldest of this.feeds.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  clear(): void {
    this.feeds.clear();
    this.bytes = 0;
  }

  private delete(holderId: string): void {
    const feed = this.feeds.get(holderId);
    if (!feed) return;
    this.feeds.delete(holderId);
    this.bytes -= feed.bytes;
  }
}
