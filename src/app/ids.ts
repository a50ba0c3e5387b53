import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** `acc` accounts, `hdr` holders, `key` API keys, `evt` event types, `bkg` bookings, `hld` holds, `whk` webhooks, `msg` events, `dlv` deliveries, `cal` calendar sources, `sch` schedules. */
export type IdPrefix = 'acc' | 'hdr' | 'key' | 'evt' | 'bkg' | 'hld' | 'whk' | 'msg' | 'dlv' | 'cal' | 'sch' | 'ntf';

/**
 * Opaque ids with a type prefix: `evt_…`, 20 random base-36 characters (~103 bits). Random
 * bytes are drawn from the OS a few kilobytes at a time, not per id (a system call each).
 */
export class IdGenerator {
  private readonly pool = new Uint8Array(4096);
  private used = this.pool.length;

  newId(prefix: IdPrefix): string {
    let out = `${prefix}_`;
    const length = out.length + 20;
    while (out.length < length) {
      const byte = this.randomByte();
      // 252 = 7 × 36: rejecting the top values keeps every character equally likely.
      if (byte < 252) out += ALPHABET[byte % 36];
    }
    return out;
  }

  private randomByte(): number {
    if (this.used === this.pool.length) {
      randomFillSync(this.pool);
      this.used = 0;
    }
    return this.pool[this.used++]!;
  }
}
