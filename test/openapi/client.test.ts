// A client generated from the served OpenAPI document (openapi-typescript types + openapi-fetch)
// compiles under strict tsc and performs a whole booking flow against a real `slotwise serve`.
//
// The types are generated here, in the test, from the document the spawned server serves, into a
// git-ignored folder (test/openapi/.generated/). Not a committed schema.d.ts checked for
// freshness: the document is built from the routes at run time, so generating from it is the
// only way to test what a client really gets, it needs no manual regeneration step when a route
// changes, and several people adding routes at once never fight over a generated file.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTypes } from '@slotwise/openapi-typegen';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  ensureBuilt,
  ROOT,
  runProcess,
  startServer,
  tempStore,
  type CliResult,
  type Server,
  type TempStore,
} from '../e2e/support.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RUN_DIR = join(HERE, '.generated', `client-${process.pid}-${Date.now().toString(36)}`);

let store: TempStore;
let server: Server;
let key: string;

beforeAll(async () => {
  ensureBuilt();
  store = tempStore();
  key = await createKey(store.databaseUrl, 'generated-client');
  server = await startServer(store.databaseUrl);
});

afterAll(async () => {
  await server?.stop();
  store?.remove();
  if (process.env.SLOTWISE_KEEP_GENERATED !== '1') rmSync(RUN_DIR, { recursive: true, force: true });
});

function run(command: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runProcess(command, args, { ...process.env, ...env });
}

describe('a client generated with openapi-typescript + openapi-fetch', () => {
  it('compiles under strict tsc and books, reads, cancels and reschedules against a real server', async () => {
    const response = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string };
    expect(document.openapi).toBe('3.1.0');

    mkdirSync(RUN_DIR, { recursive: true });
    writeFileSync(join(RUN_DIR, 'schema.d.ts'), await generateTypes(document));
    copyFileSync(join(HERE, 'client', 'booking-flow.ts'), join(RUN_DIR, 'booking-flow.ts'));
    writeFileSync(
      join(RUN_DIR, 'tsconfig.json'),
      JSON.stringify(
        {
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            noUncheckedIndexedAccess: true,
            exactOptionalPropertyTypes: true,
            skipLibCheck: false,
            types: ['node'],
            rootDir: '.',
            outDir: 'out',
          },
          files: ['booking-flow.ts'],
        },
        null,
        2,
      ),
    );

    // The project's own tsc; `skipLibCheck: false` checks the generated schema.d.ts too.
    const tsc = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', RUN_DIR], { cwd: ROOT, encoding: 'utf8' });
    expect(tsc.status, `tsc failed:\n${tsc.stdout}\n${tsc.stderr}`).toBe(0);

    const flow = await run(process.execPath, [join(RUN_DIR, 'out', 'booking-flow.js')], {
      SLOTWISE_URL: server.url,
      SLOTWISE_KEY: key,
    });
    expect(flow.code, `the client program failed:\n${flow.stdout}\n${flow.stderr}`).toBe(0);
    const result = JSON.parse(flow.stdout) as {
      log: Array<{ step: string; status: number }>;
      timeZone: string;
      refusedDetail: string;
    };
    expect(result.log).toEqual([
      { step: 'create event type', status: 201 },
      { step: 'replace availability', status: 200 },
      { step: 'list slots', status: 200 },
      { step: 'create booking', status: 201 },
      { step: 'get booking', status: 200 },
      { step: 'cancel booking', status: 200 },
      { step: 'cancel again', status: 409 },
      { step: 'create second booking', status: 201 },
      { step: 'reschedule booking', status: 201 },
      { step: 'get old booking', status: 200 },
      { step: 'book taken slot', status: 409 },
      { step: 'list bookings', status: 200 },
      { step: 'get unknown booking', status: 404 },
    ]);
    expect(result.timeZone).toBe('UTC');
    expect(result.refusedDetail.length).toBeGreaterThan(0);
  });
});
