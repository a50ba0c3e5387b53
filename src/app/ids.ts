import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Opaque id with a type prefix: `evt_…`; 20 random base-36 characters (~103 bits). */
export function newId(prefix: 'hld' | 'key' | 'evt' | 'bkg' | 'whk' | 'msg' | 'dlv'): string {
  return `${prefix}_${randomString(20)}`;
}

export function randomString(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 252 = 7 × 36: rejecting the top values keeps every character equally likely.
      if (byte < 252 && out.length < length) out += ALPHABET[byte % 36];
    }
  }
  return out;
}
