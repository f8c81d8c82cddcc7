import type pg from 'pg';
import { checkId } from '../checks.ts';
import type { AnswerMode } from '../store.ts';

/** The groups with private answers (/answers private), shared by replicas: a row each, gone when public again. */
export const createPostgresAnswerModeStore = (pool: pg.Pool) => ({
  async mode(chatId: number): Promise<AnswerMode> {
    const { rowCount } = await pool.query('SELECT 1 FROM private_answer_chats WHERE chat_id = $1', [checkId(chatId)]);
    return (rowCount ?? 0) > 0 ? 'private' : 'public';
  },
  async set(chatId: number, mode: AnswerMode, userId: number, now: number): Promise<void> {
    if (mode === 'public') {
      await pool.query('DELETE FROM private_answer_chats WHERE chat_id = $1', [checkId(chatId)]);
      return;
    }
    await pool.query(
      `INSERT INTO private_answer_chats (chat_id, set_by, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (chat_id) DO UPDATE SET set_by = excluded.set_by, updated_at = excluded.updated_at`,
      [checkId(chatId), checkId(userId), now],
    );
  },
});
