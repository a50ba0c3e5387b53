// How one setting of the environment is read and checked, for config.ts: every problem is
// collected, so that a start with bad settings names them all at once.

export function readBoolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean, problems: string[]): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === '') return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  problems.push(`${name} must be true or false, got "${env[name]}"`);
  return fallback;
}

export function readInteger(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  range: { min: number; max: number },
  problems: string[],
): number {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < range.min || number > range.max) {
    problems.push(`${name} must be a whole number from ${range.min} to ${range.max}, got "${env[name]}"`);
    return fallback;
  }
  return number;
}

const DURATION_UNITS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** `250ms`, `5s`, `5m`, `2h`, `1d`, `2w` → milliseconds; undefined for anything else or zero. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h|d|w)$/.exec(text);
  if (!match || Number(match[1]) === 0) return undefined;
  return Number(match[1]) * DURATION_UNITS[match[2]!]!;
}
