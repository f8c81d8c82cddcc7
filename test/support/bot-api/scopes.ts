// BotCommandScope as the Bot API server reads it ("can't parse BotCommandScope: ..."), resolved to
// a known chat, and checked as tdlib checks it; the normalized scope keys the stored command lists.
import type { ChatStore } from './chats.ts';
import { badRequest } from './errors.ts';
import type { BotApiError } from './errors.ts';
import { JsonFields } from './json-fields.ts';
import { isObject } from './method-context.ts';
import { Params } from './params.ts';

export type CommandScope =
  | { type: 'default' | 'all_private_chats' | 'all_group_chats' | 'all_chat_administrators' }
  | { type: 'chat' | 'chat_administrators'; chat_id: number }
  | { type: 'chat_member'; chat_id: number; user_id: number };

const GLOBAL_TYPES = new Set(['default', 'all_private_chats', 'all_group_chats', 'all_chat_administrators']);
const CHAT_TYPES = new Set(['chat', 'chat_administrators', 'chat_member']);

const scopeError = (detail: string): BotApiError => badRequest(`can't parse BotCommandScope: ${detail}`);

/** The scope parameter (decoded JSON, undefined for the default scope), normalized. */
export function readCommandScope(raw: unknown, chats: ChatStore): CommandScope {
  if (raw === undefined) return { type: 'default' };
  if (!isObject(raw)) throw scopeError('BotCommandScope must be an Object');
  const fields = new JsonFields(raw, scopeError);
  const type = fields.requiredString('type');
  if (GLOBAL_TYPES.has(type)) return { type } as CommandScope;
  if (!CHAT_TYPES.has(type)) throw scopeError('Unsupported type specified');
  const chatId = fields.requiredString('chat_id');
  if (chatId === '') throw scopeError('Empty chat_id specified');
  let userId = 0;
  if (type === 'chat_member') {
    userId = fields.requiredNumber('user_id');
    if (!Number.isSafeInteger(userId) || userId <= 0) throw scopeError('Invalid user_id specified');
  }
  const record = chats.resolve(new Params({ chat_id: chatId }));
  if (record.chat.type === 'private' && type !== 'chat') throw badRequest("can't use specified scope in private chats");
  const chat_id = record.chat.id;
  return type === 'chat_member' ? { type, chat_id, user_id: userId } : ({ type, chat_id } as CommandScope);
}
