// A browser for the booking pages' HTTP tests (through `app.inject`): it keeps the cookies the
// server sets, sends them back, and comes from one client address; and readers of the pages' forms.
import type { LightMyRequestResponse } from 'fastify';
import type { Harness } from '../support/harness.js';

/** A browser: keeps the cookies the server sets and sends them back. */
export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly h: Harness,
    /** The client's address (`request.ip`): page holds are counted per client. */
    readonly address = '127.0.0.1',
  ) {}

  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.keep(
      await this.h.request({
        method: 'GET',
        url,
        remoteAddress: this.address,
        headers: { ...headers, cookie: this.cookieHeader() },
      }),
    );
  }

  async post(url: string, form: Record<string, string | string[]>): Promise<LightMyRequestResponse> {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(form)) for (const one of [value].flat()) body.append(name, one);
    return this.keep(
      await this.h.request({
        method: 'POST',
        url,
        remoteAddress: this.address,
        payload: body.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: this.cookieHeader() },
      }),
    );
  }

  /** A cookie set by someone else (a site that can write this host's cookies), not by the server. */
  plant(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private keep(res: LightMyRequestResponse): LightMyRequestResponse {
    for (const line of [res.headers['set-cookie'] ?? []].flat()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      this.cookies.set(name, value);
    }
    return res;
  }
}

/** The forms of the day's times on an event type's page: `start` → the hidden fields. */
export function timeForms(html: string): Map<string, Record<string, string>> {
  const forms = new Map<string, Record<string, string>>();
  for (const [form] of html.matchAll(/<form method="post" action="[^"]*\/hold">.*?<\/form>/g)) {
    const fields = Object.fromEntries(
      [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [m[1]!, m[2]!]),
    );
    forms.set(fields.start!, fields);
  }
  return forms;
}

export function hiddenFields(html: string): Record<string, string> {
  return Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [m[1]!, m[2]!]),
  );
}
