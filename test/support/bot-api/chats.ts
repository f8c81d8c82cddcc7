import type { InlineKeyboardMarkup, MessageEntity, MessageOrigin, PhotoSize } from '@grammyjs/types';
import type { Chat, Message, User } from 'telegraf/types';
import { badRequest, CHAT_NOT_FOUND, forbidden } from './errors.ts';
import type { MemberRecord } from './members.ts';
import type { Params } from './params.ts';
import type { ParseMode } from './text.ts';
import type { StoredRich } from './rich-message.ts';

export type EmulatedChat = Chat.PrivateChat | Chat.GroupChat | Chat.SupergroupChat;

/** A file the bot sent; its message keeps the caption in text / entities / source. */
export interface StoredDocument {
  file_id: string;
  file_unique_id: string;
  file_name: string;
  mime_type: string;
  /** the Content-Type of the uploaded part as the bot sent it ('' without one); not a Bot API field */
  upload_type: string;
  bytes: Buffer;
}

export interface StoredMessage {
  chat_id: number;
  message_id: number;
  from: User;
  by_bot: boolean;
  /** unix seconds */
  date: number;
  /** emulated milliseconds, for rate assertions */
  sent_at_ms: number;
  /** plain text, entities removed (a document's caption, '' without one) */
  text: string;
  entities: MessageEntity[];
  /** the text parameter exactly as the bot sent it */
  source: string;
  parse_mode: ParseMode | undefined;
  reply_markup: InlineKeyboardMarkup | undefined;
  /** a reply keyboard / remove_keyboard / force_reply sent along, which the message itself does not carry */
  reply_keyboard: Record<string, unknown> | undefined;
  reply_to_message_id: number | undefined;
  message_thread_id: number | undefined;
  is_topic_message: boolean;
  edit_count: number;
  edit_date: number | undefined;
  deleted: boolean;
  /** sendDocument: the file; text and entities are then its caption */
  document?: StoredDocument;
  /** a user's photo: text and entities are then its caption */
  photo?: PhotoSize[];
  /** a forwarded message: where it first came from */
  forward_origin?: MessageOrigin;
  /** sendRichMessage: the rich message; text is then its plain text, entities empty */
  rich?: StoredRich;
  /** an ephemeral message (10.2): seen by its receiver only, addressed by (chat, receiver, id); message_id is 0 */
  ephemeral?: { receiver_user_id: number; ephemeral_message_id: number };
  /** an ephemeral message shown in place of this public message, for its receiver (replace_callback_query_message) */
  replaces_message_id?: number;
}

export type NewMessage = Omit<StoredMessage, 'chat_id' | 'message_id' | 'edit_count' | 'edit_date' | 'deleted'>;

export interface ChatActionRecord {
  action: string;
  at_ms: number;
  message_thread_id: number | undefined;
}

export interface ChatRecord {
  chat: EmulatedChat;
  nextMessageId: number;
  messages: Map<number, StoredMessage>;
  /** forum topics that exist (created by users posting into them) */
  topics: Set<number>;
  botBlocked: boolean;
  botLeft: boolean;
  /** banned from the group (setMemberStatus with the bot's id and 'kicked'); botLeft is then true too */
  botKicked: boolean;
  actions: ChatActionRecord[];
  /** groups: everyone with a status (see members.ts); users not listed have left, or never joined */
  members: Map<number, MemberRecord>;
  /** supergroups: "Hide Members" is on; only admins (the bot too) may read who is a member */
  membersHidden: boolean;
  /** ephemeral messages, the users' and the bot's, keyed by ephemeralKey(receiver, id) */
  ephemerals: Map<string, StoredMessage>;
  nextEphemeralId: number;
}

/** An ephemeral message's key in its chat: its receiver (the sender, for a user's) and its id. */
export const ephemeralKey = (receiverId: number, ephemeralId: number): string => `${receiverId}:${ephemeralId}`;

export class ChatStore {
  private readonly records = new Map<number, ChatRecord>();
  /** users tests created or who acted, who exist on Telegram whether or not they ever wrote to the bot */
  private readonly users = new Map<number, User>();

  /** Remembers a user (the latest profile wins), as Telegram knows everyone who exists. */
  registerUser(user: User): void {
    this.users.set(user.id, structuredClone(user));
  }

  user(userId: number): User | undefined {
    const user = this.users.get(userId);
    return user === undefined ? undefined : structuredClone(user);
  }

  /** Registers the chat on first use; later calls return the same record. */
  ensure(chat: EmulatedChat): ChatRecord {
    const existing = this.records.get(chat.id);
    if (existing) return existing;
    const record: ChatRecord = {
      chat: structuredClone(chat),
      nextMessageId: 1,
      messages: new Map(),
      topics: new Set(),
      botBlocked: false,
      botLeft: false,
      botKicked: false,
      actions: [],
      members: new Map(),
      membersHidden: false,
      ephemerals: new Map(),
      nextEphemeralId: 1,
    };
    this.records.set(chat.id, record);
    return record;
  }

  find(id: number): ChatRecord | undefined {
    return this.records.get(id);
  }

  all(): ChatRecord[] {
    return [...this.records.values()];
  }

  /** The chat a request addresses, by numeric id or "@username", with Telegram's errors. */
  resolve(params: Params, field = 'chat_id'): ChatRecord {
    const raw = params.string(field);
    if (raw === undefined) throw badRequest(`${field} is empty`);
    const record = raw.startsWith('@')
      ? this.all().find((r) => 'username' in r.chat && r.chat.username?.toLowerCase() === raw.slice(1).toLowerCase())
      : /^-?\d+$/.test(raw)
        ? this.records.get(Number(raw))
        : undefined;
    if (record === undefined && this.users.has(Number(raw))) throw forbidden("bot can't initiate conversation with a user");
    if (record === undefined) throw badRequest(CHAT_NOT_FOUND);
    return record;
  }

  add(chatId: number, fields: NewMessage): StoredMessage {
    const record = this.records.get(chatId);
    if (record === undefined) throw new Error(`bot API emulator: unknown chat ${chatId}`);
    const message: StoredMessage = {
      ...fields,
      chat_id: chatId,
      message_id: record.nextMessageId++,
      edit_count: 0,
      edit_date: undefined,
      deleted: false,
    };
    record.messages.set(message.message_id, message);
    return message;
  }

  /**
   * An ephemeral message (message_id 0): its id counts per chat, so the (chat, receiver, id)
   * triple addresses it. `receiverId` is the user who sees it (the sender, for a user's own).
   */
  addEphemeral(chatId: number, receiverId: number, fields: NewMessage): StoredMessage {
    const record = this.records.get(chatId);
    if (record === undefined) throw new Error(`bot API emulator: unknown chat ${chatId}`);
    const ephemeralId = record.nextEphemeralId++;
    const message: StoredMessage = {
      ...fields,
      chat_id: chatId,
      message_id: 0,
      edit_count: 0,
      edit_date: undefined,
      deleted: false,
      ephemeral: { receiver_user_id: receiverId, ephemeral_message_id: ephemeralId },
    };
    record.ephemerals.set(ephemeralKey(receiverId, ephemeralId), message);
    return message;
  }

  /** An ephemeral message that exists (not deleted, not expired). */
  ephemeral(chatId: number, receiverId: number, ephemeralId: number): StoredMessage | undefined {
    const message = this.records.get(chatId)?.ephemerals.get(ephemeralKey(receiverId, ephemeralId));
    return message?.deleted === false ? message : undefined;
  }

  /** A message that exists (was sent and not deleted). */
  message(chatId: number, messageId: number): StoredMessage | undefined {
    const message = this.records.get(chatId)?.messages.get(messageId);
    return message?.deleted === false ? message : undefined;
  }

  toApiMessage(message: StoredMessage, withReply = true): Message.TextMessage {
    const record = this.records.get(message.chat_id);
    if (record === undefined) throw new Error(`bot API emulator: unknown chat ${message.chat_id}`);
    const replied = message.reply_to_message_id === undefined ? undefined : this.message(message.chat_id, message.reply_to_message_id);
    const ephemeral = message.ephemeral;
    const receiver = ephemeral !== undefined && message.by_bot ? this.user(ephemeral.receiver_user_id) : undefined;
    const result = {
      message_id: message.message_id,
      ...(ephemeral === undefined ? {} : { ephemeral_message_id: ephemeral.ephemeral_message_id }),
      ...(receiver === undefined ? {} : { receiver_user: receiver }),
      ...(message.message_thread_id === undefined ? {} : { message_thread_id: message.message_thread_id }),
      from: structuredClone(message.from),
      chat: structuredClone(record.chat),
      date: message.date,
      ...(message.edit_date === undefined ? {} : { edit_date: message.edit_date }),
      ...(message.is_topic_message ? { is_topic_message: true as const } : {}),
      ...(message.forward_origin === undefined ? {} : { forward_origin: structuredClone(message.forward_origin) }),
      ...(withReply && replied ? { reply_to_message: this.toApiMessage(replied, false) } : {}),
      ...(message.rich !== undefined
        ? { rich_message: { blocks: structuredClone(message.rich.blocks) } }
        : message.document !== undefined
          ? documentFields(message.document, message.text, message.entities)
          : message.photo !== undefined
            ? { photo: structuredClone(message.photo), ...captionFields(message.text, message.entities) }
            : { text: message.text, ...(message.entities.length === 0 ? {} : { entities: structuredClone(message.entities) }) }),
      ...(message.reply_markup === undefined ? {} : { reply_markup: structuredClone(message.reply_markup) }),
    };
    return result as Message.TextMessage;
  }
}

const captionFields = (caption: string, entities: MessageEntity[]) => ({
  ...(caption === '' ? {} : { caption }),
  ...(entities.length === 0 ? {} : { caption_entities: structuredClone(entities) }),
});

function documentFields({ bytes, upload_type: _uploadType, ...file }: StoredDocument, caption: string, entities: MessageEntity[]) {
  return { document: { ...file, file_size: bytes.length }, ...captionFields(caption, entities) };
}

/** 403s for chats the bot can no longer write to, worded as Telegram words them. */
export function assertBotCanWrite(record: ChatRecord): void {
  if (record.chat.type === 'private' && record.botBlocked) throw forbidden('bot was blocked by the user');
  const kind = record.chat.type === 'group' ? 'group' : 'supergroup';
  if (record.chat.type !== 'private' && record.botKicked) throw forbidden(`bot was kicked from the ${kind} chat`);
  if (record.chat.type !== 'private' && record.botLeft) throw forbidden(`bot is not a member of the ${kind} chat`);
}
