// A user types "@bot query" in some chat: Telegram sends the bot an inline_query update.
import type { User } from 'telegraf/types';
import type { EmulatorState, InlineChatType } from './state.ts';

export const MAX_INLINE_QUERY_LENGTH = 256;
export const MAX_INLINE_OFFSET_BYTES = 64;

const CHAT_TYPES = new Set<InlineChatType>(['sender', 'private', 'group', 'supergroup', 'channel']);

export interface SendInlineQueryInput {
  from: User;
  /** up to 256 characters, as clients allow */
  query: string;
  /** the next_offset of an earlier answer, when the user scrolls on; default "" */
  offset?: string;
  /** where the user types; left out of the update when not given (as for secret chats) */
  chatType?: InlineChatType;
}

export function userSendsInlineQuery(state: EmulatorState, input: SendInlineQueryInput): string {
  if (input.query.length > MAX_INLINE_QUERY_LENGTH) {
    throw new Error(`bot API emulator: Telegram clients send inline queries of at most ${MAX_INLINE_QUERY_LENGTH} characters`);
  }
  const offset = input.offset ?? '';
  if (Buffer.byteLength(offset, 'utf8') > MAX_INLINE_OFFSET_BYTES) {
    throw new Error(`bot API emulator: an offset is a next_offset the bot gave, at most ${MAX_INLINE_OFFSET_BYTES} bytes`);
  }
  if (input.chatType !== undefined && !CHAT_TYPES.has(input.chatType)) {
    throw new Error(`bot API emulator: unknown inline query chat type ${JSON.stringify(input.chatType)}`);
  }
  state.chats.registerUser(input.from);
  const id = String(5_000_000_000_000_000n + BigInt(state.inlineQueries.size + 1));
  state.inlineQueries.set(id, {
    id,
    from: structuredClone(input.from),
    query: input.query,
    offset,
    chat_type: input.chatType,
    created_ms: state.clock.nowMs(),
    answer: undefined,
  });
  state.updates.push('inline_query', {
    id,
    from: structuredClone(input.from),
    query: input.query,
    offset,
    ...(input.chatType === undefined ? {} : { chat_type: input.chatType }),
  });
  return id;
}
