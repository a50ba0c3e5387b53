// SQLite without SLOTWISE_SECRET: the keys live in a file in the data folder, next to the database,
// made on first start and readable by its owner alone. It holds what SLOTWISE_SECRET would (one or
// more keys, comma-separated, newest first), so a key can be rotated in there too.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  copyFileSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { newSecretKey, parseSecretKeys } from './keyring.js';

export const KEY_FILE_NAME = 'slotwise.secret';

export interface KeyFile {
  path: string;
  keys: string[];
  /** Whether this call made the file. */
  created: boolean;
}

/**
 * The keys of `folder`'s key file, which is made first if there is none. Two processes starting at
 * once on one folder end with the same key: the file is written aside and linked into place, which
 * fails for the second, which then reads the first one's. Fails, naming the file and never its
 * content, when the file is readable by others or holds no valid key.
 */
export function readOrCreateKeyFile(folder: string): KeyFile {
  const path = join(folder, KEY_FILE_NAME);
  let created = false;
  if (!exists(path)) {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    created = createKeyFile(path);
  }
  return { path, keys: readKeyFile(path), created };
}

function createKeyFile(path: string): boolean {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const fd = openSync(aside, 'wx', 0o600);
  try {
    writeSync(fd, `${newSecretKey()}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(aside, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links: an exclusive copy (the mode comes along).
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
      try {
        copyFileSync(aside, path, constants.COPYFILE_EXCL);
        return true;
      } catch (copyError) {
        if ((copyError as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw copyError;
      }
    }
    throw error;
  } finally {
    unlinkSync(aside);
  }
}

function readKeyFile(path: string): string[] {
  const stat = statSync(path);
  if (!stat.isFile()) throw new Error(`the key file ${path} is not a file`);
  // File modes mean nothing on Windows.
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    const mode = (stat.mode & 0o777).toString(8);
    throw new Error(
      `the key file ${path} can be read by others (mode ${mode}); make it its owner's alone: chmod 600 ${path}`,
    );
  }
  const { keys, problems } = parseSecretKeys(readFileSync(path, 'utf8').trim(), `the key file ${path}`);
  if (problems.length > 0) throw new Error(problems.join('; '));
  return keys;
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
