// The keyring behind the Keyring port: the keys of SLOTWISE_SECRET (or of the SQLite key file),
// newest first. Each purpose gets its own keys, derived with HKDF-SHA256, so nothing made for one
// purpose opens or verifies for another, and no derived key reveals the root key.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Keyring, SecretPurpose } from '../app/ports/keyring.js';

/** The shortest key accepted: 32 characters (`openssl rand -base64 32` makes 44). */
export const MIN_SECRET_LENGTH = 32;

/** The version tag of what `encrypt` makes: `s1.<key id>.<base64url of nonce, ciphertext, tag>`. */
const SEALED_VERSION = 's1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const SALT = Buffer.from('slotwise keyring v1');

/**
 * One or more keys, comma-separated, newest first, as SLOTWISE_SECRET and the key file hold them.
 * The problems name `source` and say what is wrong with which key, never the key itself.
 */
export function parseSecretKeys(text: string, source: string): { keys: string[]; problems: string[] } {
  const keys = text.split(',').map((key) => key.trim());
  const problems: string[] = [];
  keys.forEach((key, index) => {
    const which = keys.length === 1 ? source : `${source} key ${index + 1} of ${keys.length}`;
    if (key === '') {
      problems.push(`${which} is empty: separate keys with single commas`);
    } else if (key.length < MIN_SECRET_LENGTH) {
      problems.push(
        `${which} is ${key.length} characters long; each key needs at least ${MIN_SECRET_LENGTH} (make one with \`openssl rand -base64 32\`)`,
      );
    } else if (keys.indexOf(key) !== index) {
      problems.push(`${which} repeats key ${keys.indexOf(key) + 1}`);
    }
  });
  return { keys, problems };
}

/** A new random key, in the form `openssl rand -base64 32` gives. */
export function newSecretKey(): string {
  return randomBytes(32).toString('base64');
}

interface RootKey {
  /** Names the key inside what it encrypted, so that decryption picks it without trying each. */
  id: string;
  material: Buffer;
}

export class DerivedKeyring implements Keyring {
  private readonly keys: RootKey[];
  /** Derived keys by key id, purpose and use: HKDF runs once for each. */
  private readonly derived = new Map<string, Buffer>();

  /** `secrets`: newest first; the first encrypts and signs, every one decrypts and verifies. */
  constructor(secrets: readonly string[]) {
    if (secrets.length === 0) throw new Error('a keyring needs at least one key');
    if (secrets.some((secret) => secret.length < MIN_SECRET_LENGTH))
      throw new Error(`every key of a keyring needs at least ${MIN_SECRET_LENGTH} characters`);
    this.keys = secrets.map((secret) => {
      const material = Buffer.from(secret, 'utf8');
      return { id: Buffer.from(derive(material, 'key-id', 6)).toString('base64url'), material };
    });
  }

  /** How many keys the ring holds (for the start-up log line; never the keys). */
  get size(): number {
    return this.keys.length;
  }

  encrypt(purpose: SecretPurpose, plaintext: string, context = ''): string {
    const key = this.keys[0]!;
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keyFor(key, purpose, 'encrypt'), nonce);
    cipher.setAAD(associatedData(purpose, context));
    const body = Buffer.concat([nonce, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${SEALED_VERSION}.${key.id}.${body.toString('base64url')}`;
  }

  decrypt(purpose: SecretPurpose, sealed: string, context = ''): string | undefined {
    const [version, id, encoded, ...rest] = sealed.split('.');
    if (version !== SEALED_VERSION || encoded === undefined || rest.length > 0) return undefined;
    const key = this.keys.find((candidate) => candidate.id === id);
    if (!key) return undefined;
    const body = Buffer.from(encoded, 'base64url');
    if (body.length < NONCE_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv(
        'aes-256-gcm',
        this.keyFor(key, purpose, 'encrypt'),
        body.subarray(0, NONCE_BYTES),
      );
      decipher.setAAD(associatedData(purpose, context));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      const plain = Buffer.concat([
        decipher.update(body.subarray(NONCE_BYTES, body.length - TAG_BYTES)),
        decipher.final(),
      ]);
      return plain.toString('utf8');
    } catch {
      // The tag does not match: altered, or made for another purpose or context.
      return undefined;
    }
  }

  sign(purpose: SecretPurpose, data: string): string {
    return this.mac(this.keys[0]!, purpose, data).toString('base64url');
  }

  verify(purpose: SecretPurpose, data: string, signature: string): boolean {
    const given = Buffer.from(signature, 'base64url');
    // Node's decoder skips what is not base64url and reads padding and the standard alphabet too:
    // only the one spelling `sign` makes is accepted, so an altered link never opens.
    if (given.toString('base64url') !== signature) return false;
    // Every key is tried, so the time taken says nothing about which one matched.
    let matched = false;
    for (const key of this.keys) {
      const expected = this.mac(key, purpose, data);
      if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
    }
    return matched;
  }

  private mac(key: RootKey, purpose: SecretPurpose, data: string): Buffer {
    return createHmac('sha256', this.keyFor(key, purpose, 'sign'))
      .update(data, 'utf8')
      .digest();
  }

  private keyFor(key: RootKey, purpose: SecretPurpose, use: 'encrypt' | 'sign'): Buffer {
    const name = `${key.id}/${purpose}/${use}`;
    let derived = this.derived.get(name);
    if (!derived) {
      derived = Buffer.from(derive(key.material, `${purpose}/${use}`, 32));
      this.derived.set(name, derived);
    }
    return derived;
  }
}

function derive(material: Buffer, info: string, length: number): ArrayBuffer {
  return hkdfSync('sha256', material, SALT, info, length);
}

function associatedData(purpose: SecretPurpose, context: string): Buffer {
  return Buffer.from(`${purpose}\n${context}`, 'utf8');
}
