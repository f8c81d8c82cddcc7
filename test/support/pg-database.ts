import { inject } from 'vitest';
import { createDatabase } from './postgres.ts';

/** The URL of a new empty database on the test run's PostgreSQL server (postgres-global.ts). */
export const freshDatabase = (prefix = 'bot'): Promise<string> => createDatabase(inject('postgresUrl'), prefix);

/** The run's server itself (the `postgres` database, as superuser). */
export const postgresServerUrl = (): string => inject('postgresUrl');
