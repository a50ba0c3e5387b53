import { parseArgs } from 'node:util';

/** Exit codes scripts can rely on. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

export class UsageError extends Error {}

type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

/** Strict parsing: an unknown flag or a stray argument is a usage error (exit 2). */
export function commandArgs<O extends OptionSpec>(args: string[], options: O, positionals = false) {
  return parseArgs({ args, options, allowPositionals: positionals, strict: true });
}
