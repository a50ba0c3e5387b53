// The tests' SLOTWISE_SECRET: fixed, so records written by one server (or spawned process) open in
// another, as they must on several instances of one PostgreSQL database.
import { DerivedKeyring } from '../../src/secrets/keyring.js';

export const TEST_SECRET = 'test-secret-0123456789abcdefghijklmnopqrstuvwxyz';

/** A second key, for rotation tests: newer than TEST_SECRET when listed first. */
export const NEXT_TEST_SECRET = 'next-secret-9876543210zyxwvutsrqponmlkjihgfedcba';

export function testKeyring(keys: string[] = [TEST_SECRET]): DerivedKeyring {
  return new DerivedKeyring(keys);
}
