import type { DatabaseSync } from 'node:sqlite';
import { checkId } from '../checks.ts';
import type { AutolookupStore } from '../store.ts';

/** The groups with /autolookup on: a row each, gone when it is turned off. */
export const createSqliteAutolookupStore = (db: DatabaseSync): AutolookupStore => {
  const select = db.prepare('SELECT 1 AS on_ FROM autolookup_chats WHERE chat_id = ?');
  const upsert = db.prepare(`
    INSERT INTO autolookup_chats (chat_id, enabled_by, updated_at) VALUES (:chat, :user, :now)
    ON CONFLICT (chat_id) DO UPDATE SET enabled_by = excluded.enabled_by, updated_at = excluded.updated_at`);
  const remove = db.prepare('DELETE FROM autolookup_chats WHERE chat_id = ?');
  return {
    enabled: (chatId) => select.get(checkId(chatId)) !== undefined,
    set(chatId, on, userId, now) {
      if (on) upsert.run({ chat: checkId(chatId), user: checkId(userId), now });
      else remove.run(checkId(chatId));
    },
  };
};
