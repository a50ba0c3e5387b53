// The served OpenAPI document passes Spectral's `spectral:oas` ruleset (.spectral.yaml at the repo
// root) with no errors. Warnings are printed, not failed on.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SPECTRAL = join(ROOT, 'node_modules', '.bin', 'spectral');

interface SpectralResult {
  code: string;
  message: string;
  path: string[];
  severity: number; // 0 error, 1 warning, 2 info, 3 hint
}

let h: Harness;
let dir: string;

beforeAll(async () => {
  h = await createHarness();
  dir = mkdtempSync(join(tmpdir(), 'slotwise-spectral-'));
});

afterAll(async () => {
  await h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function lint(document: unknown): { status: number | null; results: SpectralResult[]; output: string } {
  const documentFile = join(dir, 'openapi.json');
  const resultFile = join(dir, 'spectral.json');
  writeFileSync(documentFile, JSON.stringify(document, null, 2));
  rmSync(resultFile, { force: true });
  const run = spawnSync(
    SPECTRAL,
    [
      'lint',
      documentFile,
      '--ruleset',
      join(ROOT, '.spectral.yaml'),
      '--format',
      'json',
      '--output',
      resultFile,
      '--fail-severity',
      'error',
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 30_000 },
  );
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? String(run.error) : ''}`;
  let results: SpectralResult[] = [];
  try {
    results = JSON.parse(readFileSync(resultFile, 'utf8')) as SpectralResult[];
  } catch {
    // no result file: the assertions below show the output
  }
  return { status: run.status, results, output };
}

const describeResult = (r: SpectralResult) => `${r.code} at ${r.path.join('.')}: ${r.message}`;

describe('spectral:oas', () => {
  it('finds no errors in GET /api/v1/openapi.json', async () => {
    const res = await h.request({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const { status, results, output } = lint(res.json());

    const errors = results.filter((r) => r.severity === 0);
    const warnings = results.filter((r) => r.severity === 1);
    if (warnings.length > 0)
      console.warn(`Spectral warnings on the OpenAPI document:\n${warnings.map(describeResult).join('\n')}`);
    expect(errors.map(describeResult)).toEqual([]);
    expect(status, output).toBe(0);
  });

  it('does fail a broken document (the lint is really running)', async () => {
    const res = await h.request({ method: 'GET', url: '/api/v1/openapi.json' });
    const document = res.json() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    document.paths['/api/v1/slots']!.get!.responses['200'] = {}; // a response without its required description
    const { status, results } = lint(document);
    expect(status).not.toBe(0);
    expect(results.filter((r) => r.severity === 0).map((r) => r.code)).toContain('oas3-schema');
  });
});
