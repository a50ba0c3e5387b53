import pg from 'pg';
import type { ChangeLog, CommitsElsewhere } from './change-log.js';
import { CHANGES_CHANNEL } from './migrations/0009_change_notifications.js';

export interface ChangeFeedTiming {
  /** How often the feed's connection is asked whether it is alive. */
  heartbeatMs: number;
  /** A heartbeat unanswered this long counts the connection lost. */
  heartbeatTimeoutMs: number;
  /** The first wait before reconnecting; doubled after each failure up to `maxReconnectMs`. */
  reconnectMs: number;
  maxReconnectMs: number;
}

/**
 * heartbeat + timeout (+ the notification's own delivery) bounds how long this process can serve a
 * key another process revoked (issue 16: within a second).
 */
export const DEFAULT_CHANGE_FEED_TIMING: ChangeFeedTiming = {
  heartbeatMs: 250,
  heartbeatTimeoutMs: 400,
  reconnectMs: 100,
  maxReconnectMs: 5_000,
};

/**
 * PostgreSQL: one connection of its own that `LISTEN`s to the holders named by other processes'
 * commits (migration 0009). While it listens, what was read may be reused until a notification
 * concerns it; while it does not (before it first connects, once it is lost, until `LISTEN` is
 * done again), the process hears nothing and every read goes to the database; once back,
 * everything read before counts as changed, since notifications sent meanwhile are gone. A
 * connection that silently stops answering (a dropped network path) is found by a heartbeat.
 *
 * Started by the first question, so that a process that never reuses reads (the CLI) never
 * opens it.
 */
export class PostgresChangeFeed implements CommitsElsewhere {
  private log: ChangeLog | null = null;
  private client: pg.Client | null = null;
  private listening = false;
  private started = false;
  private closed = false;
  private reconnectWaitMs: number;
  private heartbeat: NodeJS.Timeout | null = null;
  private heartbeatSentAt: number | null = null;
  private reconnecting: NodeJS.Timeout | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly timing: ChangeFeedTiming = DEFAULT_CHANGE_FEED_TIMING,
  ) {
    this.reconnectWaitMs = timing.reconnectMs;
  }

  hearing(log: ChangeLog): boolean {
    if (!this.started) {
      this.started = true;
      this.log = log;
      void this.connect();
    }
    return this.listening;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnecting) clearTimeout(this.reconnecting);
    const client = this.client;
    this.drop();
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: 'slotwise-change-feed',
      keepAlive: true,
      connectionTimeoutMillis: this.timing.heartbeatTimeoutMs * 5,
    });
    this.client = client;
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (notification) => {
      if (this.client !== client || notification.channel !== CHANGES_CHANNEL) return;
      if (notification.payload) this.log!.holderChanged(notification.payload);
      else this.log!.everythingChanged();
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANGES_CHANNEL}`);
    } catch {
      this.lost(client);
      return;
    }
    if (this.client !== client) return;
    // Whatever was read before may have changed while nothing was heard.
    this.log!.everythingChanged();
    this.listening = true;
    this.reconnectWaitMs = this.timing.reconnectMs;
    this.heartbeat = setInterval(() => this.beat(client), this.timing.heartbeatMs);
    this.heartbeat.unref();
  }

  private beat(client: pg.Client): void {
    if (this.heartbeatSentAt !== null) {
      if (performance.now() - this.heartbeatSentAt > this.timing.heartbeatTimeoutMs) this.lost(client);
      return;
    }
    this.heartbeatSentAt = performance.now();
    client.query('select 1').then(
      () => {
        if (this.client === client) this.heartbeatSentAt = null;
      },
      () => this.lost(client),
    );
  }

  /** Stops trusting the connection at once, ends it, and tries again after a wait. */
  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.drop();
    client.end().catch(() => {});
    if (this.closed) return;
    this.reconnecting = setTimeout(() => {
      this.reconnecting = null;
      void this.connect();
    }, this.reconnectWaitMs);
    this.reconnecting.unref();
    this.reconnectWaitMs = Math.min(this.reconnectWaitMs * 2, this.timing.maxReconnectMs);
  }

  private drop(): void {
    this.listening = false;
    this.client = null;
    this.heartbeatSentAt = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}
