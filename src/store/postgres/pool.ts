import pg from 'pg';

// One node-postgres pool per process for the PostgreSQL store. BIGINT columns (times in
// milliseconds, Telegram ids, counts) are read as numbers: every value the bot keeps fits in
// 2^53, and the stores compare them with the numbers they were given.

const INT8_OID = 20;

const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

export type PoolOptions = {
  /** postgres://user:password@host:port/db?sslmode=…, as node-postgres reads it. */
  url: string;
  /** The most connections this process opens. */
  size: number;
  /** How long to wait for a connection (to open, or to be free) before failing. */
  connectTimeoutMs?: number;
  /** How long the server lets a statement run (waiting for a lock included) before cancelling it. */
  statementTimeoutMs?: number;
};

export const createPool = ({ url, size, connectTimeoutMs = 5_000, statementTimeoutMs = 30_000 }: PoolOptions): pg.Pool =>
  new pg.Pool({
    connectionString: url,
    max: size,
    types,
    connectionTimeoutMillis: connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    // No statement may hold a connection for ever: the server cuts a slow one, and the client
    // gives up on an answer that never comes (a cut network, a server that vanished), which
    // TCP keepalive notices on an idle connection too.
    statement_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs + 5_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    application_name: 'order-lookup-bot',
  });

/**
 * Runs `work` in a transaction on one connection of the pool: committed when it returns, rolled
 * back when it throws. A connection that failed mid-way is destroyed rather than reused.
 */
export const inTransaction = async <T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A connection lost while checked out emits 'error': caught here, not an uncaught exception.
  const onError = (error: Error) => {
    broken = error;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      if (!broken) await client.query('ROLLBACK');
    } catch (rollbackError) {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    }
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
};

/** Where the store is, for messages and logs: host, port and database, never the password. */
export const describeDatabase = (url: string): string => {
  try {
    const parsed = new URL(url);
    return `postgres://${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
  } catch {
    return 'postgres://(unparsable URL)';
  }
};
