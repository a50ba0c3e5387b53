import type { Config } from '../config.js';
import { openStorage } from '../storage/open-storage.js';
import type { Storage } from '../storage/storage.js';

/** Opens DATABASE_URL's storage, or fails with a message that names it (without its password). */
export async function openConfiguredStorage(config: Config): Promise<Storage> {
  try {
    return await openStorage(config.database, config.postgres, config.sqlite);
  } catch (error) {
    const where = config.database.kind === 'postgres' ? redact(config.database.url) : config.database.filename;
    throw new Error(`cannot open the database ${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}
