// `npm ci` installs exactly what package-lock.json records and refuses a lock file in which a
// package's optional dependency has no entry, on every OS, not only on the one that lacks it. A
// lock file written while the registry had no package of some platform (a native build of
// rollup or swc) leaves that platform out silently; this catches it in `npm test`, before a
// clean `npm ci` (as `.ci/run` and a Docker build do) fails. npm 12 also skips every dependency
// install script that package.json's `allowScripts` does not allow, so a new one must be reviewed
// (allowed or denied) before it lands, not found later as a missing native binary.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

interface LockEntry {
  name?: string;
  version?: string;
  hasInstallScript?: boolean;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

interface LockFile {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
}

/** Where node (and npm) would find `name` from the package at `path`: its own node_modules, then each parent's. */
function resolve(lock: LockFile, path: string, name: string): string | undefined {
  let at = path;
  for (;;) {
    const candidate = `${at === '' ? '' : `${at}/`}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (at === '') return undefined;
    const cut = at.lastIndexOf('/node_modules/');
    at = cut === -1 ? '' : at.slice(0, cut);
  }
}

/** Every optional dependency of every package that has no entry where it would be installed. */
function missingOptionalPackages(lock: LockFile): string[] {
  const missing: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (entry.link) continue;
    for (const name of Object.keys(entry.optionalDependencies ?? {})) {
      if (resolve(lock, path, name) === undefined) missing.push(`${path || '(root)'} → ${name}`);
    }
  }
  return missing;
}

interface Manifest {
  devDependencies: Record<string, string>;
  overrides: { vite: { rollup: string } };
  allowScripts?: Record<string, boolean>;
}

/**
 * The names of the packages in the lock file that have an install script. `allowScripts` entries
 * are by name: the lock file records no `resolved` URLs, and without one npm cannot match a pinned
 * `name@version` entry (it approves by name and says so).
 */
function packagesWithInstallScripts(lock: LockFile): string[] {
  const names = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
    .map(([path, entry]) => entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  return [...new Set(names)].sort();
}

describe('package-lock.json', () => {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as LockFile;
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
  const allowScripts = manifest.allowScripts ?? {};

  it('records every platform of every optional dependency, so npm ci works on any OS and CPU', () => {
    expect(lock.lockfileVersion).toBe(3);
    expect(missingOptionalPackages(lock)).toEqual([]);
  });

  it('when a platform package is missing, then the check names it (the check is really running)', () => {
    const broken: LockFile = structuredClone(lock);
    const [path] = Object.keys(broken.packages).filter((key) =>
      /(^|\/)node_modules\/@rollup\/rollup-darwin-arm64$/.test(key),
    );
    expect(path).toBeDefined();
    delete broken.packages[path!];
    expect(missingOptionalPackages(broken)).toEqual([expect.stringMatching(/→ @rollup\/rollup-darwin-arm64$/)]);
  });

  it('records the versions package.json pins (a lock file written by another install would differ)', () => {
    expect(lock.packages['node_modules/@swc/core']?.version).toBe(manifest.devDependencies['@swc/core']);
    const rollup = resolve(lock, 'node_modules/vite', 'rollup');
    expect(rollup && lock.packages[rollup]?.version).toBe(manifest.overrides.vite.rollup);
  });

  it("has every dependency's install script allowed or denied in package.json (npm 12 skips the rest)", () => {
    const withScripts = packagesWithInstallScripts(lock);
    expect(withScripts.filter((name) => !(name in allowScripts))).toEqual([]);
    // An entry outliving its package would decide for whatever later takes the name.
    expect(Object.keys(allowScripts).filter((name) => !withScripts.includes(name))).toEqual([]);
  });

  it('denies the telemetry postinstall (@scarf/scarf) and lets better-sqlite3 fetch or build its binary', () => {
    expect(allowScripts).toMatchObject({ '@scarf/scarf': false, 'better-sqlite3': true });
  });

  it('finds the install scripts npm ci reports (the check is really running)', () => {
    expect(packagesWithInstallScripts(lock)).toEqual(
      expect.arrayContaining(['@swc/core', 'better-sqlite3', 'esbuild']),
    );
  });
});
