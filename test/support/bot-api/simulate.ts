// What users do: send text, press buttons. Each queues the update Telegram would send the bot.
import type { MessageOrigin, PhotoSize } from '@grammyjs/types';
import { isEphemeralCommand } from './ephemeral.ts';
import type { Chat, Message, User } from 'telegraf/types';
import type { EmulatedChat, NewMessage } from './chats.ts';
import { findUserEntities } from './entities.ts';
import { reachesBot } from './privacy.ts';
import { callbackDataOf, findCallbackButton } from './keyboard.ts';
import { noteUserActivity } from './members.ts';
import type { EmulatorState } from './state.ts';
import { MAX_CAPTION_LENGTH } from './methods-documents.ts';
import { MAX_MESSAGE_LENGTH } from './text.ts';

/** A message as tests hold it: a Bot API Message, or a BotMessage view. */
export type MessageRef =
  | { message_id: number; chat: { id: number }; ephemeral_message_id?: number | undefined }
  | { message_id: number; chat_id: number; ephemeral_message_id?: number | undefined };

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

/** A user sends a photo, with a caption or without. */
export type SendPhotoInput = Omit<SendTextInput, 'text'> & { caption?: string };

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

/** The text (or caption) and what goes with it, checked as a Telegram client would send it. */
function userSends(state: EmulatorState, input: SendTextInput, extra: Pick<NewMessage, 'photo'> = {}): Message {
  const chat = input.chat ?? privateChatOf(input.from);
  if (chat.type === 'private' && chat.id !== input.from.id) {
    throw new Error(`bot API emulator: user ${input.from.id} cannot write in the private chat of ${chat.id}`);
  }
  if (extra.photo === undefined && input.text.trim() === '') throw new Error('bot API emulator: Telegram clients do not send empty messages');
  if (extra.photo === undefined && input.text.length > MAX_MESSAGE_LENGTH) throw new Error('bot API emulator: Telegram clients split texts over 4096 characters');
  if (extra.photo !== undefined && input.text.length > MAX_CAPTION_LENGTH) throw new Error('bot API emulator: a caption is at most 1024 characters');
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
  // A command the bot registered with is_ephemeral is sent ephemerally: seen by the sender and the bot only.
  const ephemeral = extra.photo === undefined && input.replyTo === undefined && isEphemeralCommand(state, record, input.from, input.text);
  const add = (fields: NewMessage) => (ephemeral ? state.chats.addEphemeral(chat.id, input.from.id, fields) : state.chats.add(chat.id, fields));
  const stored = add({
    from: structuredClone(input.from),
    by_bot: false,
    date: state.clock.unix(),
    sent_at_ms: state.clock.nowMs(),
    text: input.text,
    entities: findUserEntities(input.text),
    source: input.text,
    parse_mode: undefined,
    reply_markup: undefined,
    reply_keyboard: undefined,
    reply_to_message_id: replyToId,
    message_thread_id: input.threadId,
    is_topic_message: isForum && input.threadId !== undefined,
    ...(input.forwardOrigin === undefined ? {} : { forward_origin: structuredClone(input.forwardOrigin) }),
    ...extra,
  });
  const message = state.chats.toApiMessage(stored);
  if (reachesBot(state, record, stored)) state.updates.push('message', message);
  return message;
}

export function userSendsText(state: EmulatorState, input: SendTextInput): Message.TextMessage {
  return userSends(state, input) as Message.TextMessage;
}

/** One photo as a client uploads it: Telegram gives the bot its sizes. */
const PHOTO_SIZES = (n: number): PhotoSize[] => [
  { file_id: `photo-${n}-s`, file_unique_id: `ph${n}s`, width: 90, height: 67, file_size: 1_200 },
  { file_id: `photo-${n}-m`, file_unique_id: `ph${n}m`, width: 320, height: 240, file_size: 14_000 },
];

export function userSendsPhoto(state: EmulatorState, input: SendPhotoInput): Message {
  return userSends(state, { ...input, text: input.caption ?? '' }, { photo: PHOTO_SIZES(state.clock.nowMs()) });
}

export function userPressesButton(state: EmulatorState, input: PressButtonInput): string {
  const { chatId, messageId } = refOf(input.message);
  const ephemeralId = input.message.ephemeral_message_id;
  // An ephemeral message is there for its receiver only: nobody else can see it, let alone press it.
  const message = ephemeralId === undefined ? state.chats.message(chatId, messageId) : state.chats.ephemeral(chatId, input.from.id, ephemeralId);
  if (message === undefined) {
    if (ephemeralId === undefined) throw new Error(`bot API emulator: message ${messageId} does not exist in chat ${chatId} (never sent, or deleted)`);
    throw new Error(`bot API emulator: ephemeral message ${ephemeralId} for user ${input.from.id} does not exist in chat ${chatId} (never sent, deleted, expired, or someone else's)`);
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
    ephemeral_message_id: ephemeralId,
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
