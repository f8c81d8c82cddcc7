import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { createDatabase, startPostgres } from '../test/support/postgres.ts';

// PostgreSQL for the benchmark: a real server (test/support/postgres.ts: Debian's binaries, a
// temporary directory, fsync off) with pg_stat_statements loaded, and what it costs: the CPU time
// of its processes from /proc, and per database the transactions (pg_stat_database) and the
// statements, each one round trip from the bot (pg_stat_statements, BEGIN and COMMIT included).

export type BenchPostgres = Awaited<ReturnType<typeof startBenchPostgres>>;

/** One database's counters at a moment: transactions, and calls and execution time per statement text. */
export type DatabaseSnapshot = { transactions: number; statements: Map<string, { calls: number; ms: number }> };

const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat after the command name; [] when the process is gone. */
const statFields = (pid: number | string): string[] => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return [];
  }
};

/** The postmaster: the process whose program is `postgres` started with `-p <port>`. */
const postmasterOf = (port: number): number => {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const portAt = args.indexOf('-p');
    if (args[0]?.endsWith('postgres') && portAt > 0 && args[portAt + 1] === String(port)) return Number(entry);
  }
  throw new Error(`no postgres process listening on port ${port} found in /proc`);
};

export const startBenchPostgres = async () => {
  const server = await startPostgres({
    settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all', 'pg_stat_statements.max': '10000' },
  });
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const postmaster = postmasterOf(server.port);
  const version = String((await admin.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version);
  return {
    url: server.url,
    version,
    /** A new empty database; its URL. */
    createDatabase: (prefix: string) => createDatabase(server.url, prefix),
    /**
     * User + system CPU time of the whole server so far, in ms: the postmaster with the children it
     * has reaped (backends that ended, e.g. idle pool connections closed) and those alive now.
     */
    cpuMs(): number {
      const own = statFields(postmaster);
      let ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(own[index] ?? 0), 0);
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        const fields = statFields(entry);
        if (Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
      }
      return (ticks * 1000) / TICKS_PER_SECOND;
    },
    async snapshot(databaseUrl: string): Promise<DatabaseSnapshot> {
      const name = new URL(databaseUrl).pathname.slice(1);
      const xacts = await admin.query<{ n: number }>('SELECT (xact_commit + xact_rollback)::float8 AS n FROM pg_stat_database WHERE datname = $1', [name]);
      const rows = await admin.query<{ query: string; calls: number; ms: number }>(
        `SELECT s.query, sum(s.calls)::float8 AS calls, sum(s.total_exec_time)::float8 AS ms
           FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
          WHERE d.datname = $1 GROUP BY s.query`,
        [name],
      );
      return {
        transactions: Number(xacts.rows[0]?.n ?? 0),
        statements: new Map(rows.rows.map((row) => [row.query.replace(/\s+/g, ' ').trim(), { calls: row.calls, ms: row.ms }])),
      };
    },
    async stop() {
      await admin.end();
      await server.stop();
    },
  };
};

/** What a database did between two snapshots. */
export const databaseDelta = (before: DatabaseSnapshot, after: DatabaseSnapshot) => {
  const statements = [...after.statements].map(([query, { calls, ms }]) => {
    const was = before.statements.get(query);
    return { query, calls: calls - (was?.calls ?? 0), ms: ms - (was?.ms ?? 0) };
  });
  const calls = (pattern: RegExp) => statements.filter(({ query }) => pattern.test(query)).reduce((sum, s) => sum + s.calls, 0);
  return {
    transactions: after.transactions - before.transactions,
    statements: statements.reduce((sum, s) => sum + s.calls, 0),
    /** Explicit transactions: BEGIN … COMMIT / ROLLBACK, each two statements more than its work. */
    begins: calls(/^(BEGIN|START TRANSACTION)\b/i),
    /** Server time executing them, in ms. */
    execMs: statements.reduce((sum, s) => sum + s.ms, 0),
    /** The statements run most often, most first. */
    top: statements.filter((s) => s.calls > 0).sort((a, b) => b.calls - a.calls),
  };
};

export type DatabaseDelta = ReturnType<typeof databaseDelta>;
