// A real CalDAV server for tests: Radicale (Debian's package), started on 127.0.0.1 on a free port
// with its own temporary storage folder, a plain-text htpasswd file (alice / secret) and owner-only
// rights, stopped and removed by `stop()`. Calendars and events are written to it over CalDAV
// (MKCALENDAR, PUT, DELETE with HTTP Basic), as a calendar app would.
//
// Without /usr/bin/radicale (or SLOTWISE_RADICALE) a test file using it skips with a warning,
// unless SLOTWISE_REQUIRE_RADICALE=1 (set by .ci/run), which makes a missing Radicale a failure:
// see `radicaleGate`.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const RADICALE_BIN = process.env.SLOTWISE_RADICALE ?? '/usr/bin/radicale';
export const RADICALE_AVAILABLE = existsSync(RADICALE_BIN);
export const RADICALE_REQUIRED = process.env.SLOTWISE_REQUIRE_RADICALE === '1';

/**
 * Whether a test file's Radicale tests run: they do when Radicale is installed, and also when it
 * is required (then `Radicale.start()` fails loudly); otherwise they skip, and `what` is named in
 * a warning.
 */
export function radicaleGate(what: string): boolean {
  if (RADICALE_AVAILABLE || RADICALE_REQUIRED) return true;
  console.warn(
    `\n*** ${what} SKIPPED: ${RADICALE_BIN} is not installed (apt-get install radicale). Set SLOTWISE_REQUIRE_RADICALE=1 to make this a failure. ***\n`,
  );
  return false;
}

export class Radicale {
  readonly user = 'alice';
  readonly password = 'secret';

  private constructor(
    private readonly child: ChildProcess,
    private readonly folder: string,
    readonly port: number,
    private readonly exited: Promise<void>,
  ) {}

  static async start(): Promise<Radicale> {
    if (!RADICALE_AVAILABLE) {
      throw new Error(
        `${RADICALE_BIN} is not installed, and SLOTWISE_REQUIRE_RADICALE=1 requires the CalDAV tests (apt-get install radicale)`,
      );
    }
    const folder = await mkdtemp(join(tmpdir(), 'slotwise-radicale-'));
    try {
      await writeFile(join(folder, 'users'), 'alice:secret\n');
      // A port found free can be taken before Radicale binds it: try again with another.
      for (let attempt = 1; ; attempt++) {
        const port = await freePort();
        try {
          return await Radicale.launch(folder, port);
        } catch (error) {
          if (attempt >= 3) throw error;
        }
      }
    } catch (error) {
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
  }

  private static async launch(folder: string, port: number): Promise<Radicale> {
    const config = join(folder, 'config');
    await writeFile(
      config,
      [
        '[server]',
        `hosts = 127.0.0.1:${port}`,
        '[auth]',
        'type = htpasswd',
        `htpasswd_filename = ${join(folder, 'users')}`,
        'htpasswd_encryption = plain',
        // No pause after a wrong password: a test of one stays fast.
        'delay = 0',
        '[rights]',
        'type = owner_only',
        '[storage]',
        `filesystem_folder = ${join(folder, 'collections')}`,
        '[web]',
        'type = none',
        '[logging]',
        'level = warning',
        '',
      ].join('\n'),
    );
    const child = spawn(RADICALE_BIN, ['--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let running = true;
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => {
        running = false;
        resolve();
      });
      child.once('error', (error) => {
        output += String(error);
        running = false;
        resolve();
      });
    });
    const radicale = new Radicale(child, folder, port, exited);
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (!running) throw new Error(`Radicale exited before answering on port ${port}:\n${output}`);
      try {
        await fetch(radicale.url, { method: 'OPTIONS', signal: AbortSignal.timeout(1_000) });
        return radicale;
      } catch {
        if (Date.now() > deadline) {
          await radicale.kill();
          throw new Error(`Radicale did not answer on port ${port} within 20 s:\n${output}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /** http://127.0.0.1:port/ */
  get url(): string {
    return `http://127.0.0.1:${this.port}/`;
  }

  /** The collection URL of alice's calendar `name` (with its trailing slash). */
  calendarUrl(name: string): string {
    return `${this.url}${this.user}/${name}/`;
  }

  /** Creates alice's calendar `name` with MKCALENDAR and answers its URL. */
  async createCalendar(name: string): Promise<string> {
    const url = this.calendarUrl(name);
    const response = await this.send(url, 'MKCALENDAR');
    if (response.status !== 201) throw new Error(`MKCALENDAR ${name}: ${response.status} ${await response.text()}`);
    return url;
  }

  /** PUTs the iCalendar object `ics` as `<uid>.ics` into the calendar at `calendarUrl`. */
  async putEvent(calendarUrl: string, uid: string, ics: string): Promise<void> {
    const response = await this.send(`${calendarUrl}${encodeURIComponent(uid)}.ics`, 'PUT', ics, {
      'content-type': 'text/calendar; charset=utf-8',
    });
    if (response.status !== 201 && response.status !== 204) {
      throw new Error(`PUT ${uid}: ${response.status} ${await response.text()}`);
    }
  }

  /** DELETEs the object `<uid>.ics` from the calendar at `calendarUrl`. */
  async deleteEvent(calendarUrl: string, uid: string): Promise<void> {
    const response = await this.send(`${calendarUrl}${encodeURIComponent(uid)}.ics`, 'DELETE');
    if (response.status !== 200 && response.status !== 204) {
      throw new Error(`DELETE ${uid}: ${response.status} ${await response.text()}`);
    }
  }

  /** Stops Radicale and removes its folder. */
  async stop(): Promise<void> {
    await this.kill();
    await rm(this.folder, { recursive: true, force: true });
  }

  private async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const stopped = await Promise.race([
      this.exited.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000)),
    ]);
    if (!stopped) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }

  private send(url: string, method: string, body?: string, headers: Record<string, string> = {}): Promise<Response> {
    const authorization = `Basic ${Buffer.from(`${this.user}:${this.password}`).toString('base64')}`;
    return fetch(url, { method, body, headers: { authorization, ...headers } });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
