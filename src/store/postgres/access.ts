import type pg from 'pg';
import { checkId } from '../checks.ts';
import { readGrant, readRequest, REQUEST_COLUMNS } from '../access-rows.ts';
import type { AllowedIds } from '../access-cache.ts';
import type { AccessRequest, Decider, DecideResult, Decision, Grant, NewAccessRequest, NewGrant, OpenRequestResult, RequestMessage } from '../access-store.ts';

// Who admins allowed, shared by every replica. Each change notifies `access_changed` in its own
// statement, so on commit: the other replicas read the list again (settings-listener.ts).

export const ACCESS_CHANNEL = 'access_changed';

/** The write, then a notice sent when (and only if) it changed a row and commits. */
const notifying = (write: string): string => `WITH changed AS (${write} RETURNING 1) SELECT pg_notify('${ACCESS_CHANNEL}', '') FROM changed`;

export type PostgresAccessRows = {
  users(): Promise<Grant[]>;
  chats(): Promise<Grant[]>;
  allowUser(grant: NewGrant): Promise<boolean>;
  denyUser(userId: number): Promise<boolean>;
  allowChat(grant: NewGrant): Promise<boolean>;
  denyChat(chatId: number): Promise<boolean>;
  openRequest(request: NewAccessRequest, now: number, perMs: number): Promise<OpenRequestResult>;
  request(id: number): Promise<AccessRequest | undefined>;
  decide(id: number, decision: Decision, by: Decider, now: number): Promise<DecideResult>;
  addRequestMessage(requestId: number, message: RequestMessage): Promise<void>;
  requestMessages(requestId: number): Promise<RequestMessage[]>;
  allowedIds(): Promise<AllowedIds>;
};

export const createPostgresAccessRows = (pool: pg.Pool): PostgresAccessRows => {
  const table = { user: 'access_users', chat: 'access_chats' } as const;
  const column = { user: 'user_id', chat: 'chat_id' } as const;
  const list = async (kind: 'user' | 'chat') =>
    (await pool.query(`SELECT ${column[kind]} AS id, added_at, added_by, label FROM ${table[kind]} ORDER BY added_at, ${column[kind]}`)).rows.map(readGrant);
  const allow = async (kind: 'user' | 'chat', { id, by, at, label }: NewGrant) => {
    const { rows } = await pool.query(
      notifying(`INSERT INTO ${table[kind]} (${column[kind]}, added_at, added_by, label) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`),
      [checkId(id), at, checkId(by), label ?? null],
    );
    return rows.length > 0;
  };
  const request = async (id: number): Promise<AccessRequest | undefined> => {
    const { rows } = await pool.query(`SELECT ${REQUEST_COLUMNS} FROM access_requests WHERE id = $1`, [id]);
    return rows[0] ? readRequest(rows[0]) : undefined;
  };
  const deny = async (kind: 'user' | 'chat', id: number) => {
    const { rows } = await pool.query(notifying(`DELETE FROM ${table[kind]} WHERE ${column[kind]} = $1`), [checkId(id)]);
    return rows.length > 0;
  };

  return {
    users: () => list('user'),
    chats: () => list('chat'),
    allowUser: (grant) => allow('user', grant),
    denyUser: (userId) => deny('user', userId),
    allowChat: (grant) => allow('chat', grant),
    denyChat: (chatId) => deny('chat', chatId),
    async allowedIds() {
      const { rows } = await pool.query<{ kind: string; id: number }>("SELECT 'user' AS kind, user_id AS id FROM access_users UNION ALL SELECT 'chat', chat_id FROM access_chats");
      return { users: rows.filter((row) => row.kind === 'user').map((row) => row.id), chats: rows.filter((row) => row.kind === 'chat').map((row) => row.id) };
    },

    async openRequest(request, now, perMs) {
      // One statement, so replicas pressed at once cannot both open one: the row's lock decides.
      const { rows } = await pool.query(
        `INSERT INTO access_requests (user_id, id, chat_id, chat_title, name, username, language_code, created_at)
         VALUES ($1, nextval('access_request_ids'), $2, $3, $4, $5, $6, $7)
         ON CONFLICT (user_id) DO UPDATE SET id = excluded.id, chat_id = excluded.chat_id, chat_title = excluded.chat_title,
           name = excluded.name, username = excluded.username, language_code = excluded.language_code, created_at = excluded.created_at,
           decision = NULL, decided_by = NULL, decided_at = NULL
         WHERE access_requests.created_at <= $8
         RETURNING ${REQUEST_COLUMNS}`,
        [checkId(request.userId), checkId(request.chatId), request.chatTitle ?? null, request.name, request.username ?? null, request.languageCode ?? null, now, now - perMs],
      );
      if (rows[0]) return { ok: true, request: readRequest(rows[0]) };
      const last = await pool.query<{ created_at: number }>('SELECT created_at FROM access_requests WHERE user_id = $1', [request.userId]);
      return { ok: false, lastAt: last.rows[0]?.created_at ?? now };
    },
    request,
    async decide(id, decision, by, now) {
      // A second admin's UPDATE waits for the first's lock, then finds the decision made: no row.
      const { rows } = await pool.query(
        `UPDATE access_requests SET decision = $2, decided_by = $3, decided_by_name = $4, decided_at = $5 WHERE id = $1 AND decision IS NULL RETURNING ${REQUEST_COLUMNS}`,
        [id, decision, checkId(by.id), by.name, now],
      );
      if (rows[0]) return { won: true, request: readRequest(rows[0]) };
      const found = await request(id);
      return found ? { won: false, request: found } : { won: false };
    },
    async addRequestMessage(requestId, { chatId, messageId }) {
      await pool.query(
        `INSERT INTO access_request_messages (request_id, chat_id, message_id) VALUES ($1, $2, $3)
         ON CONFLICT (request_id, chat_id) DO UPDATE SET message_id = excluded.message_id`,
        [requestId, checkId(chatId), messageId],
      );
    },
    async requestMessages(requestId) {
      const { rows } = await pool.query<{ chat_id: number; message_id: number }>('SELECT chat_id, message_id FROM access_request_messages WHERE request_id = $1 ORDER BY chat_id', [requestId]);
      return rows.map((row) => ({ chatId: row.chat_id, messageId: row.message_id }));
    },
  };
};
