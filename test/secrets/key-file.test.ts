// src/secrets/key-file.ts: on SQLite without SLOTWISE_SECRET, the keys live in the data folder's
// key file, made on first start readable by its owner alone (0600) and reused after.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KEY_FILE_NAME, readOrCreateKeyFile } from '../../src/secrets/key-file.js';
import { TEST_SECRET } from '../support/secrets.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slotwise-keyfile-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the SQLite key file', () => {
  it('when there is none, then one is made with one new key, mode 0600, and nothing else is left in the folder', () => {
    const file = readOrCreateKeyFile(dir);
    expect(file.created).toBe(true);
    expect(file.path).toBe(join(dir, KEY_FILE_NAME));
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    expect(file.keys).toHaveLength(1);
    expect(readFileSync(file.path, 'utf8')).toBe(`${file.keys[0]}\n`);
    expect(Buffer.from(file.keys[0]!, 'base64')).toHaveLength(32);
    expect(readdirSync(dir)).toEqual([KEY_FILE_NAME]);
  });

  it('when it exists, then its keys are reused and the file is not rewritten', () => {
    const first = readOrCreateKeyFile(dir);
    const written = statSync(first.path).mtimeMs;
    const second = readOrCreateKeyFile(dir);
    expect(second.created).toBe(false);
    expect(second.keys).toEqual(first.keys);
    expect(statSync(first.path).mtimeMs).toBe(written);
  });

  it('when the data folder does not exist yet, then it is made', () => {
    const nested = join(dir, 'data', 'nested');
    expect(readOrCreateKeyFile(nested).created).toBe(true);
  });

  it('when the file holds several keys (rotated in by hand), then they are read newest first', () => {
    const other = 'x'.repeat(40);
    writeFileSync(join(dir, KEY_FILE_NAME), ` ${other} , ${TEST_SECRET}\n`, { mode: 0o600 });
    expect(readOrCreateKeyFile(dir).keys).toEqual([other, TEST_SECRET]);
  });

  it('when the file can be read by group or others, then it is refused with the chmod that fixes it', () => {
    const path = join(dir, KEY_FILE_NAME);
    writeFileSync(path, `${TEST_SECRET}\n`, { mode: 0o600 });
    chmodSync(path, 0o644);
    expect(() => readOrCreateKeyFile(dir)).toThrow(
      `the key file ${path} can be read by others (mode 644); make it its owner's alone: chmod 600 ${path}`,
    );
  });

  it('when the file holds a short key, then it is refused naming the file and not the key', () => {
    const path = join(dir, KEY_FILE_NAME);
    writeFileSync(path, 'hunter2\n', { mode: 0o600 });
    let message = '';
    try {
      readOrCreateKeyFile(dir);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(`the key file ${path} is 7 characters long`);
    expect(message).not.toContain('hunter2');
  });

  it('when the file is empty, then it is refused', () => {
    writeFileSync(join(dir, KEY_FILE_NAME), '', { mode: 0o600 });
    expect(() => readOrCreateKeyFile(dir)).toThrow('is empty');
  });
});
