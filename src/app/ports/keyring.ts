// The server's own secrets (contract §8, SLOTWISE_SECRET): what encrypts data the server keeps and
// signs what it hands out. Implemented by src/secrets/keyring.ts, built once by the composition root.

/**
 * What a derived key is for. Each purpose gets its own key, so a value made for one purpose is
 * never accepted for another.
 */
export type SecretPurpose =
  | 'idempotency-replay'
  | 'guest-links'
  | 'feed-links'
  | 'page-sessions'
  | 'stored-credentials'
  /** Digests of the clients that made page holds: counted per client, never stored as addresses. */
  | 'page-clients';

export interface Keyring {
  /**
   * `plaintext` encrypted and authenticated under the newest key's `purpose` key, as printable
   * ASCII. `context` (not stored) binds it to where it is kept: `decrypt` wants the same one.
   */
  encrypt(purpose: SecretPurpose, plaintext: string, context?: string): string;
  /** What `encrypt` made, or undefined when no key of the ring can open it (rotated out, altered, another purpose or context). */
  decrypt(purpose: SecretPurpose, sealed: string, context?: string): string | undefined;
  /** A MAC of `data` under the newest key's `purpose` key (base64url, no padding). */
  sign(purpose: SecretPurpose, data: string): string;
  /**
   * Whether `signature` is `sign(purpose, data)` under any key of the ring (compared in constant
   * time), spelt exactly as `sign` spells it: no padding, no other alphabet, nothing added.
   */
  verify(purpose: SecretPurpose, data: string, signature: string): boolean;
}
