// The caller a holder key makes, for tests that call use cases directly.
import { principalOf } from '../../src/app/api-keys.js';
import { callerFor, type Caller } from '../../src/app/context.js';
import { digestOf } from '../../src/app/key-cache.js';
import type { ApiKeyReads, AuthenticatedKey } from '../../src/app/ports/store.js';

export function callerOfKey(key: AuthenticatedKey): Caller {
  if (!key.holder) throw new Error('an account key acts for no holder of its own');
  return callerFor(principalOf(key, key.holder), key.holder);
}

export async function callerOfToken(apiKeys: ApiKeyReads, token: string): Promise<Caller> {
  const key = await apiKeys.findByDigest(digestOf(token));
  if (!key) throw new Error('no such key');
  return callerOfKey(key);
}
