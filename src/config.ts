import { parseDatabaseUrl, type DatabaseTarget } from './storage/open-store.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export interface Config {
  host: string;
  port: number;
  database: DatabaseTarget;
  databaseUrl: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The one reader of the environment; every setting is checked at start, all problems reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];

  const host = env.HOST?.trim() || '127.0.0.1';

  let port = 3000;
  if (env.PORT !== undefined && env.PORT !== '') {
    port = Number(env.PORT);
    if (!/^\d+$/.test(env.PORT) || port > 65535) problems.push(`PORT must be a whole number from 0 to 65535, got "${env.PORT}"`);
  }

  const logLevel = (env.LOG_LEVEL?.trim() || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);

  let database: DatabaseTarget = { kind: 'sqlite', filename: '' };
  try {
    database = parseDatabaseUrl(env.DATABASE_URL);
  } catch (error) {
    problems.push((error as Error).message);
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return { host, port, database, databaseUrl: env.DATABASE_URL, logLevel };
}
