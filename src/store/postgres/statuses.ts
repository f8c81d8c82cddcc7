import type pg from 'pg';
import { keptStatuses, MAX_STATUSES, readStatusRow, type StatusPair } from '../store.ts';

/** The statuses seen in records, shared by replicas: a row per code (the latest text seen beside it). */
export const createPostgresStatusStore = (pool: pg.Pool) => ({
  async all(): Promise<StatusPair[]> {
    const { rows } = await pool.query<Record<string, unknown>>(`SELECT resource, field, code, text FROM status_names ORDER BY seen_at DESC, code LIMIT ${MAX_STATUSES}`);
    return rows.flatMap((row) => {
      const pair = readStatusRow(row);
      return pair ? [pair] : [];
    });
  },
  async learn(pairs: readonly StatusPair[], now: number): Promise<void> {
    const kept = keptStatuses(pairs);
    if (kept.length === 0) return;
    // One statement for the lot: the arrays line up element by element.
    await pool.query(
      `INSERT INTO status_names (resource, field, code, text, seen_at)
       SELECT resource, field, code, text, $5 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS seen (resource, field, code, text)
       ON CONFLICT (resource, field, code) DO UPDATE SET text = excluded.text, seen_at = excluded.seen_at`,
      [kept.map((pair) => pair.resource), kept.map((pair) => pair.field), kept.map((pair) => pair.code), kept.map((pair) => pair.text), now],
    );
  },
});
