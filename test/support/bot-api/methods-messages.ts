// sendMessage, sendRichMessage, editMessageText (text or rich_message), editMessageReplyMarkup, deleteMessage.
import { assertBotCanWrite } from './chats.ts';
import type { ChatRecord, StoredMessage } from './chats.ts';
import { badRequest, NOT_MODIFIED } from './errors.ts';
import { entitiesKey } from './entities.ts';
import { markupKey, readReplyMarkup } from './keyboard.ts';
import { canDeleteOthers } from './members.ts';
import { isObject } from './method-context.ts';
import { Params } from './params.ts';
import type { MethodContext, MethodHandler } from './method-context.ts';
import { botAsSender } from './state.ts';
import type { EmulatorState, InlineMessageRecord } from './state.ts';
import { formatMessageText, readParseMode } from './text.ts';
import { readEphemeralSend } from './ephemeral.ts';
import type { NewMessage } from './chats.ts';
import { readRichMessage } from './rich-message.ts';
import type { FormattedMessageText } from './text.ts';

function readText({ params, state }: MethodContext): () => FormattedMessageText {
  // parameter-level checks come before the chat lookup, entity parsing after it, as in the Bot API
  readParseMode(params.string('parse_mode'));
  if (!params.has('text')) throw badRequest('message text is empty');
  return () =>
    formatMessageText(
      { text: params.string('text'), parseMode: params.string('parse_mode'), entities: params.json('entities', 'message entities') },
      state.options,
    );
}

/** The message replied to (reply_parameters, or the older reply_to_message_id), checked as Telegram checks it. */
export function readReplyTarget({ params, state }: MethodContext, record: ChatRecord): StoredMessage | undefined {
  const replyParameters = params.json('reply_parameters', 'reply parameters');
  let messageId: number | undefined;
  let allowWithoutReply: boolean;
  let chatId = record.chat.id;
  if (replyParameters !== undefined) {
    if (!isObject(replyParameters)) throw badRequest("can't parse reply parameters JSON object");
    // A reply to an ephemeral message (10.2): readEphemeralSend checks it; no public message is replied to.
    if (replyParameters.message_id === undefined && typeof replyParameters.ephemeral_message_id === 'number') return undefined;
    if (typeof replyParameters.message_id !== 'number') throw badRequest('field "message_id" must be of type Number');
    messageId = replyParameters.message_id;
    allowWithoutReply = replyParameters.allow_sending_without_reply === true;
    if (replyParameters.chat_id !== undefined) {
      chatId = state.chats.resolve(new Params({ chat_id: replyParameters.chat_id })).chat.id;
    }
  } else {
    messageId = params.int('reply_to_message_id');
    allowWithoutReply = params.bool('allow_sending_without_reply');
  }
  if (messageId === undefined || messageId === 0) return undefined;
  const target = state.chats.message(chatId, messageId);
  if (target === undefined && !allowWithoutReply) throw badRequest('message to be replied not found');
  return target?.chat_id === record.chat.id ? target : undefined;
}

/** The forum topic a message goes to: given, or the replied message's; checked to exist. */
export function readThread({ params }: MethodContext, record: ChatRecord, replyTo: StoredMessage | undefined) {
  let threadId = params.int('message_thread_id') || undefined;
  const isForum = record.chat.type === 'supergroup' && record.chat.is_forum === true;
  if (!isForum) return { message_thread_id: threadId, is_topic_message: false };
  if (threadId === undefined && replyTo?.is_topic_message) threadId = replyTo.message_thread_id;
  if (threadId !== undefined && !record.topics.has(threadId)) throw badRequest('message thread not found');
  return { message_thread_id: threadId, is_topic_message: threadId !== undefined };
}

/** A public message, or an ephemeral one for its receiver (shown in place of a pressed public message, if asked). */
function addMessage(state: EmulatorState, record: ChatRecord, ephemeral: ReturnType<typeof readEphemeralSend>, fields: NewMessage): StoredMessage {
  if (ephemeral === undefined) return state.chats.add(record.chat.id, fields);
  const stored = state.chats.addEphemeral(record.chat.id, ephemeral.receiverId, { ...fields, reply_to_message_id: undefined });
  if (ephemeral.replacesMessageId !== undefined) stored.replaces_message_id = ephemeral.replacesMessageId;
  return stored;
}

export const sendMessage: MethodHandler = (context) => {
  const { params, state } = context;
  const markup = readReplyMarkup(params.json('reply_markup', 'reply keyboard markup'), { inlineOnly: false });
  const format = readText(context);
  const record = state.chats.resolve(params);
  context.noteChat(record.chat.id);
  assertBotCanWrite(record);
  const text = format();
  const ephemeral = readEphemeralSend(context, record);
  const replyTo = readReplyTarget(context, record);
  const stored = addMessage(state, record, ephemeral, {
    from: botAsSender(state.bot),
    by_bot: true,
    date: state.clock.unix(),
    sent_at_ms: state.clock.nowMs(),
    text: text.text,
    entities: text.entities,
    source: params.string('text') ?? '',
    parse_mode: text.parseMode,
    reply_markup: markup?.inline,
    reply_keyboard: markup?.other,
    reply_to_message_id: replyTo?.message_id,
    ...readThread(context, record, replyTo),
  });
  state.feed.emit();
  return state.chats.toApiMessage(stored);
};

/** sendRichMessage (10.1): the content in rich_message only (no text, parse_mode or entities), any reply markup. */
export const sendRichMessage: MethodHandler = (context) => {
  const { params, state } = context;
  const markup = readReplyMarkup(params.json('reply_markup', 'reply keyboard markup'), { inlineOnly: false });
  const content = params.json('rich_message', 'rich message');
  if (content === undefined) throw badRequest('rich message is empty');
  const record = state.chats.resolve(params);
  context.noteChat(record.chat.id);
  assertBotCanWrite(record);
  const rich = readRichMessage(content);
  const ephemeral = readEphemeralSend(context, record);
  const replyTo = readReplyTarget(context, record);
  const stored = addMessage(state, record, ephemeral, {
    from: botAsSender(state.bot),
    by_bot: true,
    date: state.clock.unix(),
    sent_at_ms: state.clock.nowMs(),
    text: rich.text,
    entities: [],
    source: '',
    parse_mode: undefined,
    reply_markup: markup?.inline,
    reply_keyboard: markup?.other,
    reply_to_message_id: replyTo?.message_id,
    ...readThread(context, record, replyTo),
    rich,
  });
  state.feed.emit();
  return state.chats.toApiMessage(stored);
};

type EditTarget = { record: ChatRecord; message: StoredMessage } | { inlineMessageId: string };

/**
 * Like the Bot API server: chat_id or message_id address a chat message (inline_message_id is then
 * ignored); with neither, inline_message_id is required. Of the messages sent via inline mode only
 * the guest answers (answerGuestQuery) are emulated (inlineEdit); for any other inline_message_id
 * Telegram's answer is MESSAGE_ID_INVALID, which the methods give after the other parameters were checked.
 */
function editTarget(context: MethodContext): EditTarget {
  const { params, state } = context;
  const messageId = params.int('message_id') ?? 0;
  if (!params.has('chat_id') && messageId <= 0) {
    const inlineMessageId = params.string('inline_message_id');
    if (inlineMessageId === undefined) throw badRequest('message identifier is not specified');
    return { inlineMessageId };
  }
  const record = state.chats.resolve(params);
  context.noteChat(record.chat.id);
  if (messageId <= 0) throw badRequest('message identifier is not specified');
  return { record, message: findEditable(state, record, messageId) };
}

function findEditable(state: EmulatorState, record: ChatRecord, messageId: number): StoredMessage {
  const message = state.chats.message(record.chat.id, messageId);
  if (message === undefined) throw badRequest('message to edit not found');
  if (!message.by_bot) throw badRequest("message can't be edited");
  return message;
}

/** A message sent by answerGuestQuery, or Telegram's MESSAGE_ID_INVALID. */
function inlineMessage(state: EmulatorState, inlineMessageId: string): InlineMessageRecord {
  const found = state.inlineMessages.get(inlineMessageId);
  if (found === undefined) throw badRequest('MESSAGE_ID_INVALID');
  return found;
}

/** An inline message edited: the Bot API answers `true` for these, not the Message. */
function inlineEdit(state: EmulatorState, message: InlineMessageRecord, changes: Partial<InlineMessageRecord>): true {
  Object.assign(message, changes, { edit_count: message.edit_count + 1, edit_date: state.clock.unix() });
  state.feed.emit();
  return true;
}

function applyEdit(state: EmulatorState, message: StoredMessage, changes: Partial<StoredMessage>) {
  Object.assign(message, changes, { edit_count: message.edit_count + 1, edit_date: state.clock.unix() });
  state.feed.emit();
  return state.chats.toApiMessage(message);
}

/**
 * A rich message edited with rich_message (10.1). Whether editMessageText turns a text message into
 * a rich one or back is not documented: the emulator refuses both ways, so a bot relies on neither.
 */
const editRich = (context: MethodContext, markup: ReturnType<typeof readReplyMarkup>) => {
  const { params, state } = context;
  if (params.has('text')) throw badRequest('only one of text and rich_message may be specified');
  const rich = readRichMessage(params.json('rich_message', 'rich message'));
  const target = editTarget(context);
  if ('inlineMessageId' in target) {
    const inline = inlineMessage(state, target.inlineMessageId);
    if (inline.rich === undefined) throw badRequest("message can't be edited: rich_message edits only a rich message");
    if (JSON.stringify(rich.source) === JSON.stringify(inline.rich.source) && markupKey(markup?.inline) === markupKey(inline.reply_markup)) throw badRequest(NOT_MODIFIED);
    return inlineEdit(state, inline, { text: rich.text, entities: [], rich, reply_markup: markup?.inline });
  }
  const { message } = target;
  if (message.rich === undefined) throw badRequest("message can't be edited: rich_message edits only a rich message");
  if (JSON.stringify(rich.source) === JSON.stringify(message.rich.source) && markupKey(markup?.inline) === markupKey(message.reply_markup)) {
    throw badRequest(NOT_MODIFIED);
  }
  return applyEdit(state, message, { text: rich.text, entities: [], rich, reply_markup: markup?.inline });
};

export const editMessageText: MethodHandler = (context) => {
  const { params, state } = context;
  // like Telegram, an edit without reply_markup removes the inline keyboard
  const markup = readReplyMarkup(params.json('reply_markup', 'reply keyboard markup'), { inlineOnly: true });
  if (params.has('rich_message')) return editRich(context, markup);
  const format = readText(context);
  const target = editTarget(context);
  const text = format();
  if ('inlineMessageId' in target) {
    const inline = inlineMessage(state, target.inlineMessageId);
    if (inline.rich !== undefined) throw badRequest("message can't be edited: a rich message is edited with rich_message");
    if (text.text === inline.text && entitiesKey(text.entities) === entitiesKey(inline.entities) && markupKey(markup?.inline) === markupKey(inline.reply_markup)) {
      throw badRequest(NOT_MODIFIED);
    }
    return inlineEdit(state, inline, { text: text.text, entities: text.entities, reply_markup: markup?.inline });
  }
  const { message } = target;
  if (message.document !== undefined) throw badRequest('there is no text in the message to edit');
  if (message.rich !== undefined) throw badRequest("message can't be edited: a rich message is edited with rich_message");
  if (
    text.text === message.text &&
    entitiesKey(text.entities) === entitiesKey(message.entities) &&
    markupKey(markup?.inline) === markupKey(message.reply_markup)
  ) {
    throw badRequest(NOT_MODIFIED);
  }
  return applyEdit(state, message, {
    text: text.text,
    entities: text.entities,
    source: params.string('text') ?? '',
    parse_mode: text.parseMode,
    reply_markup: markup?.inline,
  });
};

export const editMessageReplyMarkup: MethodHandler = (context) => {
  const { params, state } = context;
  const markup = readReplyMarkup(params.json('reply_markup', 'reply keyboard markup'), { inlineOnly: true });
  const target = editTarget(context);
  if ('inlineMessageId' in target) {
    const inline = inlineMessage(state, target.inlineMessageId);
    if (markupKey(markup?.inline) === markupKey(inline.reply_markup)) throw badRequest(NOT_MODIFIED);
    return inlineEdit(state, inline, { reply_markup: markup?.inline });
  }
  const { message } = target;
  if (markupKey(markup?.inline) === markupKey(message.reply_markup)) throw badRequest(NOT_MODIFIED);
  return applyEdit(state, message, { reply_markup: markup?.inline });
};

export const deleteMessage: MethodHandler = (context) => {
  const { params, state } = context;
  const record = state.chats.resolve(params);
  context.noteChat(record.chat.id);
  const messageId = params.int('message_id');
  if (messageId === undefined || messageId === 0) throw badRequest('message identifier is not specified');
  const message = state.chats.message(record.chat.id, messageId);
  if (message === undefined) throw badRequest('message to delete not found');
  // others' messages only in private chats, or as an administrator with can_delete_messages (see setMemberStatus)
  if (!message.by_bot && !canDeleteOthers(state, record)) throw badRequest("message can't be deleted");
  message.deleted = true;
  state.feed.emit();
  return true;
};
