// What users do: send text, press buttons. Each queues the update Telegram would send the bot.
import type { MessageOrigin } from '@grammyjs/types';
import type { Chat, Message, User } from 'telegraf/types';
import type { EmulatedChat } from './chats.ts';
import { findBotCommands } from './entities.ts';
import { callbackDataOf, findCallbackButton } from './keyboard.ts';
import { noteUserActivity } from './members.ts';
import type { EmulatorState } from './state.ts';
import { MAX_MESSAGE_LENGTH } from './text.ts';

/** A message as tests hold it: a Bot API Message, or a BotMessage view. */
export type MessageRef = { message_id: number; chat: { id: number } } | { message_id: number; chat_id: number };

export interface SendTextInput {
  from: User;
  /** default: the private chat with `from` */
  chat?: EmulatedChat;
  text: string;
  /** forum topic (message_thread_id); the topic exists from then on */
  threadId?: number;
  /** the message this one replies to */
  replyTo?: MessageRef;
  /** a forwarded message: where it first came from (forward_origin) */
  forwardOrigin?: MessageOrigin;
}

export interface PressButtonInput {
  from: User;
  /** the bot message carrying the button */
  message: MessageRef;
  data: string;
  /** skip the check that the message shows a button with this callback_data (for security tests) */
  forged?: boolean;
}

export interface NewGroupFields {
  /** a fixed id (negative), e.g. one a test put on an allow list */
  id?: number;
  title?: string;
  /** default 'supergroup' */
  type?: 'group' | 'supergroup';
  /** a supergroup with topics */
  forum?: boolean;
  username?: string;
}

export const newUser = (id: number, fields: Partial<Omit<User, 'is_bot'>>): User => ({
  id,
  is_bot: false,
  first_name: `User ${id}`,
  language_code: 'en',
  ...fields,
});

export function newGroup(n: number, fields: NewGroupFields): Chat.GroupChat | Chat.SupergroupChat {
  const title = fields.title ?? `Group ${n}`;
  if (fields.type === 'group') return { id: fields.id ?? -(4_000_000_000 + n), type: 'group', title };
  return {
    id: fields.id ?? -(1_002_000_000_000 + n),
    type: 'supergroup',
    title,
    ...(fields.username === undefined ? {} : { username: fields.username }),
    ...(fields.forum ? { is_forum: true as const } : {}),
  };
}

const refOf = (ref: MessageRef): { chatId: number; messageId: number } => ({
  chatId: 'chat_id' in ref ? ref.chat_id : ref.chat.id,
  messageId: ref.message_id,
});

export const privateChatOf = (user: User): EmulatedChat => ({
  id: user.id,
  type: 'private',
  first_name: user.first_name,
  ...(user.last_name === undefined ? {} : { last_name: user.last_name }),
  ...(user.username === undefined ? {} : { username: user.username }),
});

export function userSendsText(state: EmulatorState, input: SendTextInput): Message.TextMessage {
  const chat = input.chat ?? privateChatOf(input.from);
  if (chat.type === 'private' && chat.id !== input.from.id) {
    throw new Error(`bot API emulator: user ${input.from.id} cannot write in the private chat of ${chat.id}`);
  }
  if (input.text.trim() === '') throw new Error('bot API emulator: Telegram clients do not send empty messages');
  if (input.text.length > MAX_MESSAGE_LENGTH) throw new Error('bot API emulator: Telegram clients split texts over 4096 characters');
  state.chats.registerUser(input.from);
  const record = state.chats.ensure(chat);
  noteUserActivity(record, input.from.id, 'write');
  const isForum = record.chat.type === 'supergroup' && record.chat.is_forum === true;
  if (input.threadId !== undefined) record.topics.add(input.threadId);
  let replyToId: number | undefined;
  if (input.replyTo !== undefined) {
    const { chatId, messageId } = refOf(input.replyTo);
    if (chatId !== chat.id || state.chats.message(chatId, messageId) === undefined) {
      throw new Error(`bot API emulator: message ${messageId} does not exist in chat ${chat.id}, cannot reply to it`);
    }
    replyToId = messageId;
  }
  const stored = state.chats.add(chat.id, {
    from: structuredClone(input.from),
    by_bot: false,
    date: state.clock.unix(),
    sent_at_ms: state.clock.nowMs(),
    text: input.text,
    entities: findBotCommands(input.text),
    source: input.text,
    parse_mode: undefined,
    reply_markup: undefined,
    reply_keyboard: undefined,
    reply_to_message_id: replyToId,
    message_thread_id: input.threadId,
    is_topic_message: isForum && input.threadId !== undefined,
    ...(input.forwardOrigin === undefined ? {} : { forward_origin: structuredClone(input.forwardOrigin) }),
  });
  const message = state.chats.toApiMessage(stored);
  state.updates.push('message', message);
  return message;
}

export function userPressesButton(state: EmulatorState, input: PressButtonInput): string {
  const { chatId, messageId } = refOf(input.message);
  const message = state.chats.message(chatId, messageId);
  if (message === undefined) {
    throw new Error(`bot API emulator: message ${messageId} does not exist in chat ${chatId} (never sent, or deleted)`);
  }
  if (!input.forged) {
    if (!message.by_bot) throw new Error(`bot API emulator: message ${messageId} in chat ${chatId} was not sent by the bot`);
    if (findCallbackButton(message.reply_markup, input.data) === undefined) {
      throw new Error(
        `bot API emulator: message ${messageId} in chat ${chatId} has no button with callback_data ${JSON.stringify(input.data)}; ` +
          `its buttons carry ${JSON.stringify(callbackDataOf(message.reply_markup))}`,
      );
    }
  }
  const record = state.chats.find(chatId);
  if (record !== undefined) noteUserActivity(record, input.from.id, 'press');
  state.chats.registerUser(input.from);
  const id = String(4_000_000_000_000_000n + BigInt(state.callbackQueries.size + 1));
  state.callbackQueries.set(id, {
    id,
    from: structuredClone(input.from),
    chat_id: chatId,
    message_id: messageId,
    data: input.data,
    created_ms: state.clock.nowMs(),
    forged: input.forged === true,
    answer: undefined,
  });
  state.updates.push('callback_query', {
    id,
    from: structuredClone(input.from),
    message: state.chats.toApiMessage(message),
    chat_instance: String(6_000_000_000_000_000n + BigInt(Math.abs(chatId))),
    data: input.data,
  });
  return id;
}
