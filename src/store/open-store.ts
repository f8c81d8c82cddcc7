import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { openSqliteStore } from './sqlite/store.ts';
import type { Store } from './store.ts';

/**
 * The sqlite file in DATA_DIR, or PostgreSQL when DATABASE_URL is set (waited for while it does not
 * answer). node-postgres is loaded only then: about 10 MB of memory a sqlite bot does not need.
 */
export const openStore = async (config: Pick<Config, 'dataDir' | 'database'>, { logger }: { logger: Logger }): Promise<Store> => {
  if (config.database === undefined) return openSqliteStore({ dataDir: config.dataDir });
  const { openPostgresStore } = await import('./postgres/store.ts');
  return openPostgresStore({ url: config.database.url, poolSize: config.database.poolSize, logger });
};
