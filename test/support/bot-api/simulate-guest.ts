// A user mentions the bot in a chat it is not a member of (guest mode, Bot API 10.0): Telegram
// sends the bot a `guest_message` update carrying guest_query_id, and the message it replies to as
// reply_to_message when there is one (botapi-10.md §5: the server resolves it from the update's
// reference messages, so it may be absent). An older server, or a bot whose guest mode is off in
// @BotFather (getMe's supports_guest_queries false), gets nothing.
import type { Chat, Message, MessageEntity, User } from 'telegraf/types';
import type { EmulatorState } from './state.ts';
import { atLeast, UPDATES_SINCE } from './versions.ts';

export interface GuestMessageInput {
  from: User;
  /** the chat the bot is not in: a private chat with someone else, a group or a supergroup */
  chat: Chat.PrivateChat | Chat.GroupChat | Chat.SupergroupChat;
  /** must mention the bot ("@bot …"), as only a mention summons it */
  text: string;
  /** the message the user replies to, from someone in that chat */
  replyTo?: { from: User; text: string };
}

let nextGuestMessageId = 1;

/** The guest_query_id of the queued update, or undefined when Telegram would not send one. */
export function userSummonsGuestBot(state: EmulatorState, input: GuestMessageInput): string | undefined {
  const mention = `@${state.bot.username}`;
  const at = input.text.toLowerCase().indexOf(mention.toLowerCase());
  if (at < 0) throw new Error(`bot API emulator: a guest message must mention ${mention}`);
  if (!atLeast(state.options.botApiVersion, UPDATES_SINCE.guest_message ?? '10.0')) return undefined;
  if ((state.bot as { supports_guest_queries?: boolean }).supports_guest_queries !== true) return undefined;
  const id = String(7_000_000_000_000_000n + BigInt(state.guestQueries.size + 1));
  const date = state.clock.unix();
  const entities: MessageEntity[] = [{ type: 'mention', offset: at, length: mention.length }];
  const replied =
    input.replyTo === undefined
      ? undefined
      : { message_id: nextGuestMessageId++, from: structuredClone(input.replyTo.from), chat: structuredClone(input.chat), date, text: input.replyTo.text };
  const message = {
    message_id: nextGuestMessageId++,
    from: structuredClone(input.from),
    chat: structuredClone(input.chat),
    date,
    text: input.text,
    entities,
    guest_query_id: id,
    ...(replied === undefined ? {} : { reply_to_message: replied }),
  } as Message.TextMessage & { guest_query_id: string };
  state.guestQueries.set(id, { id, from: structuredClone(input.from), chat: structuredClone(input.chat), created_ms: state.clock.nowMs(), answer: undefined });
  state.updates.push('guest_message', message);
  return id;
}
