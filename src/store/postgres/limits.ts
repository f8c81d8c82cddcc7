import type pg from 'pg';

// Flood windows and refusal quiet periods shared by the replicas: a user gets the limit once,
// not once per replica. Each call is one statement on one row.

export type PostgresLimits = {
  hit(userId: number, now: number, windowMs: number, count?: number): Promise<number>;
  take(key: string, now: number, quietMs: number): Promise<boolean>;
  sweep(now: number): Promise<void>;
};

export const createPostgresLimits = (pool: pg.Pool): PostgresLimits => ({
  async hit(userId, now, windowMs, count = 1) {
    // A window that ended restarts at this hit; an open one counts it. The row's key is the one
    // every release has written: `flood:` and the user's id.
    const key = `flood:${userId}`;
    const { rows } = await pool.query<{ hits: number }>(
      `INSERT INTO rate_windows (key, started_at, ends_at, hits) VALUES ($1, $2, $2::bigint + $3::bigint, $4)
       ON CONFLICT (key) DO UPDATE SET
         started_at = CASE WHEN rate_windows.ends_at <= excluded.started_at THEN excluded.started_at ELSE rate_windows.started_at END,
         ends_at = CASE WHEN rate_windows.ends_at <= excluded.started_at THEN excluded.ends_at ELSE rate_windows.ends_at END,
         hits = CASE WHEN rate_windows.ends_at <= excluded.started_at THEN excluded.hits ELSE rate_windows.hits + excluded.hits END
       RETURNING hits`,
      [key, now, windowMs, count],
    );
    const hits = rows[0]?.hits;
    if (hits === undefined) throw new Error(`the flood window of ${key} was not written`);
    return hits;
  },
  async take(key, now, quietMs) {
    // Written (and a row returned) only when no quiet period is running.
    const { rowCount } = await pool.query(
      `INSERT INTO quiet_periods (key, until) VALUES ($1, $2::bigint + $3::bigint)
       ON CONFLICT (key) DO UPDATE SET until = excluded.until WHERE quiet_periods.until <= $2
       RETURNING key`,
      [key, now, quietMs],
    );
    return rowCount === 1;
  },
  async sweep(now) {
    await pool.query('DELETE FROM rate_windows WHERE ends_at <= $1', [now]);
    await pool.query('DELETE FROM quiet_periods WHERE until <= $1', [now]);
  },
});
