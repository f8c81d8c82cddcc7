import type { AccessRequest, Decision, Grant } from './access-store.ts';

// Rows of the access tables as both backends read them (BIGINTs come back as numbers).

export const REQUEST_COLUMNS = 'id, user_id, chat_id, chat_title, name, username, language_code, created_at, decision, decided_by, decided_by_name, decided_at';

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const number = (value: unknown): number | undefined => (value === null || value === undefined ? undefined : Number(value));
const decision = (value: unknown): Decision | undefined => (value === 'allow' || value === 'deny' ? value : undefined);

export const readGrant = (row: Record<string, unknown>): Grant => {
  const label = text(row.label);
  return { id: Number(row.id), addedAt: Number(row.added_at), addedBy: Number(row.added_by), ...(label === undefined ? {} : { label }) };
};

export const readRequest = (row: Record<string, unknown>): AccessRequest => {
  const optional = {
    chatTitle: text(row.chat_title),
    username: text(row.username),
    languageCode: text(row.language_code),
    decision: decision(row.decision),
    decidedBy: number(row.decided_by),
    decidedByName: text(row.decided_by_name),
    decidedAt: number(row.decided_at),
  };
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    chatId: Number(row.chat_id),
    name: String(row.name),
    createdAt: Number(row.created_at),
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  };
};
