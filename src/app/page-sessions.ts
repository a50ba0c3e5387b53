import { randomBytes } from 'node:crypto';
import type { Keyring } from './ports/keyring.js';

const ID = /^[A-Za-z0-9_-]{43}$/;

/**
 * A booking page's browser session (which held time is whose): 256 random bits and their MAC
 * under a key derived from `SLOTWISE_SECRET`, `<id>.<mac>`. Sessions are made by the server only:
 * one a client made up (a planted cookie, a `session=` in a link) does not verify and is replaced.
 */
export function newPageSession(keyring: Keyring): string {
  const id = randomBytes(32).toString('base64url');
  return `${id}.${keyring.sign('page-sessions', id)}`;
}

/** Whether `token` is a session the server made (under any key of the ring). */
export function isPageSession(keyring: Keyring, token: string): boolean {
  const dot = token.indexOf('.');
  const id = token.slice(0, dot);
  return dot > 0 && ID.test(id) && keyring.verify('page-sessions', id, token.slice(dot + 1));
}
