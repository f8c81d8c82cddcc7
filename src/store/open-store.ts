import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { openPostgresStore } from './postgres-store.ts';
import { openSqliteStore } from './sqlite-store.ts';
import type { Store } from './store.ts';

/** The sqlite file in DATA_DIR, or PostgreSQL when DATABASE_URL is set (waited for while it does not answer). */
export const openStore = async (config: Pick<Config, 'dataDir' | 'database'>, { logger }: { logger: Logger }): Promise<Store> =>
  config.database === undefined
    ? openSqliteStore({ dataDir: config.dataDir })
    : openPostgresStore({ url: config.database.url, poolSize: config.database.poolSize, logger });
