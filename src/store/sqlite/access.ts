import type { DatabaseSync } from 'node:sqlite';
import { checkId } from '../checks.ts';
import { readGrant, readRequest, REQUEST_COLUMNS } from '../access-rows.ts';
import type { AllowedIds } from '../access-cache.ts';
import type { AccessRequest, Decider, DecideResult, Grant, NewAccessRequest, NewGrant, OpenRequestResult, RequestMessage } from '../access-store.ts';
import { immediately } from './transaction.ts';

/** The store's part of AccessStore on node:sqlite (plain values); the ids in memory are the cache's. */
export type SqliteAccessRows = {
  users(): Grant[];
  chats(): Grant[];
  allowUser(grant: NewGrant): boolean;
  denyUser(userId: number): boolean;
  allowChat(grant: NewGrant): boolean;
  denyChat(chatId: number): boolean;
  openRequest(request: NewAccessRequest, now: number, perMs: number): OpenRequestResult;
  request(id: number): AccessRequest | undefined;
  decide(id: number, decision: 'allow' | 'deny', by: Decider, now: number): DecideResult;
  addRequestMessage(requestId: number, message: RequestMessage): void;
  requestMessages(requestId: number): RequestMessage[];
  allowedIds(): AllowedIds;
};

export const createSqliteAccessRows = (db: DatabaseSync): SqliteAccessRows => {
  const table = { user: 'access_users', chat: 'access_chats' } as const;
  const column = { user: 'user_id', chat: 'chat_id' } as const;
  const statements = (kind: 'user' | 'chat') => ({
    list: db.prepare(`SELECT ${column[kind]} AS id, added_at, added_by, label FROM ${table[kind]} ORDER BY added_at, ${column[kind]}`),
    ids: db.prepare(`SELECT ${column[kind]} AS id FROM ${table[kind]}`),
    insert: db.prepare(`INSERT INTO ${table[kind]} (${column[kind]}, added_at, added_by, label) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`),
    remove: db.prepare(`DELETE FROM ${table[kind]} WHERE ${column[kind]} = ?`),
  });
  const users = statements('user');
  const chats = statements('chat');
  const selectLast = db.prepare('SELECT created_at FROM access_requests WHERE user_id = ?');
  const newId = db.prepare('INSERT INTO access_request_ids DEFAULT VALUES RETURNING id');
  const dropIds = db.prepare('DELETE FROM access_request_ids');
  const dropMessages = db.prepare('DELETE FROM access_request_messages WHERE request_id IN (SELECT id FROM access_requests WHERE user_id = ?)');
  const upsert = db.prepare(`
    INSERT OR REPLACE INTO access_requests (user_id, id, chat_id, chat_title, name, username, language_code, created_at)
    VALUES (:userId, :id, :chatId, :chatTitle, :name, :username, :languageCode, :now)`);
  const selectRequest = db.prepare(`SELECT ${REQUEST_COLUMNS} FROM access_requests WHERE id = ?`);
  const decideOne = db.prepare(`UPDATE access_requests SET decision = ?, decided_by = ?, decided_by_name = ?, decided_at = ? WHERE id = ? AND decision IS NULL RETURNING ${REQUEST_COLUMNS}`);
  const insertMessage = db.prepare('INSERT OR REPLACE INTO access_request_messages (request_id, chat_id, message_id) VALUES (?, ?, ?)');
  const selectMessages = db.prepare('SELECT chat_id, message_id FROM access_request_messages WHERE request_id = ? ORDER BY chat_id');

  const allow = (kind: typeof users, { id, by, at, label }: NewGrant) => Number(kind.insert.run(checkId(id), at, checkId(by), label ?? null).changes) > 0;

  return {
    users: () => users.list.all().map(readGrant),
    chats: () => chats.list.all().map(readGrant),
    allowUser: (grant) => allow(users, grant),
    denyUser: (userId) => Number(users.remove.run(checkId(userId)).changes) > 0,
    allowChat: (grant) => allow(chats, grant),
    denyChat: (chatId) => Number(chats.remove.run(checkId(chatId)).changes) > 0,
    allowedIds: () => ({ users: users.ids.all().map((row) => Number(row.id)), chats: chats.ids.all().map((row) => Number(row.id)) }),

    openRequest: (request, now, perMs) =>
      immediately(db, () => {
        const last = selectLast.get(checkId(request.userId))?.created_at;
        if (typeof last === 'number' && last > now - perMs) return { ok: false, lastAt: last };
        // AUTOINCREMENT: an id is never handed out twice, so an old request's button decides nothing.
        const id = Number(newId.get()?.id);
        dropIds.run();
        dropMessages.run(request.userId);
        upsert.run({
          userId: request.userId,
          id,
          chatId: checkId(request.chatId),
          chatTitle: request.chatTitle ?? null,
          name: request.name,
          username: request.username ?? null,
          languageCode: request.languageCode ?? null,
          now,
        });
        return { ok: true, request: readRequest(selectRequest.get(id)!) };
      }),
    request: (id) => {
      const row = selectRequest.get(id);
      return row ? readRequest(row) : undefined;
    },
    decide: (id, decision, by, now) => {
      const row = decideOne.get(decision, checkId(by.id), by.name, now, id);
      if (row) return { won: true, request: readRequest(row) };
      const found = selectRequest.get(id);
      return found ? { won: false, request: readRequest(found) } : { won: false };
    },
    addRequestMessage: (requestId, { chatId, messageId }) => void insertMessage.run(requestId, checkId(chatId), messageId),
    requestMessages: (requestId) => selectMessages.all(requestId).map((row) => ({ chatId: Number(row.chat_id), messageId: Number(row.message_id) })),
  };
};
