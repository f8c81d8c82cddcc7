import type pg from 'pg';
import { checkId } from '../checks.ts';

/** The groups with /autolookup on, shared by replicas: a row each, gone when it is turned off. */
export const createPostgresAutolookupStore = (pool: pg.Pool) => ({
  async enabled(chatId: number): Promise<boolean> {
    const { rowCount } = await pool.query('SELECT 1 FROM autolookup_chats WHERE chat_id = $1', [checkId(chatId)]);
    return (rowCount ?? 0) > 0;
  },
  async set(chatId: number, on: boolean, userId: number, now: number): Promise<void> {
    if (!on) {
      await pool.query('DELETE FROM autolookup_chats WHERE chat_id = $1', [checkId(chatId)]);
      return;
    }
    await pool.query(
      `INSERT INTO autolookup_chats (chat_id, enabled_by, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (chat_id) DO UPDATE SET enabled_by = excluded.enabled_by, updated_at = excluded.updated_at`,
      [checkId(chatId), checkId(userId), now],
    );
  },
});
