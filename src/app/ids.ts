import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Opaque id with a type prefix: `evt_…`; 20 random base-36 characters (~103 bits). */
export function newId(prefix: 'hld' | 'key' | 'evt' | 'bkg' | 'whk' | 'msg' | 'dlv'): string {
  return `${prefix}_${randomString(20)}`;
}

// Random bytes are drawn from the OS a few kilobytes at a time, not per id (a system call each).
const pool = new Uint8Array(4096);
let used = pool.length;

function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++]!;
}

function randomString(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    // 252 = 7 × 36: rejecting the top values keeps every character equally likely.
    if (byte < 252) out += ALPHABET[byte % 36];
  }
  return out;
}
