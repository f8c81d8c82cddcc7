import type { DatabaseSync } from 'node:sqlite';
import { checkId } from '../checks.ts';
import type { AnswerModeStore } from '../store.ts';

/** The groups with private answers (/answers private): a row each, gone when they are public again. */
export const createSqliteAnswerModeStore = (db: DatabaseSync): AnswerModeStore => {
  const select = db.prepare('SELECT 1 AS on_ FROM private_answer_chats WHERE chat_id = ?');
  const upsert = db.prepare(`
    INSERT INTO private_answer_chats (chat_id, set_by, updated_at) VALUES (:chat, :user, :now)
    ON CONFLICT (chat_id) DO UPDATE SET set_by = excluded.set_by, updated_at = excluded.updated_at`);
  const remove = db.prepare('DELETE FROM private_answer_chats WHERE chat_id = ?');
  return {
    mode: (chatId) => (select.get(checkId(chatId)) === undefined ? 'public' : 'private'),
    set(chatId, mode, userId, now) {
      if (mode === 'private') upsert.run({ chat: checkId(chatId), user: checkId(userId), now });
      else remove.run(checkId(chatId));
    },
  };
};
