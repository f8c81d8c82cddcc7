// Ephemeral messages (Bot API 10.2, reshaped in 10.3; /work/wt/botapi-10.md §4): a message in a
// group or supergroup that one member sees. The bot may send one within 15 seconds of that
// member's eligible action (a callback query, an incoming ephemeral message it replies to), or at
// any time as an administrator; it has message_id 0 and an ephemeral_message_id, and is edited and
// deleted by the (chat, receiver, ephemeral id) triple. Commands registered with is_ephemeral
// arrive as ephemeral messages. Error wordings are the emulator's: the official text gives none.
import type { BotCommand, User } from 'telegraf/types';
import { assertBotCanWrite } from './chats.ts';
import type { ChatRecord, StoredMessage } from './chats.ts';
import { badRequest, NOT_MODIFIED } from './errors.ts';
import { entitiesKey } from './entities.ts';
import { markupKey, readReplyMarkup } from './keyboard.ts';
import { botMember, memberOf } from './members.ts';
import { isObject } from './method-context.ts';
import type { MethodContext, MethodHandler } from './method-context.ts';
import { readRichMessage } from './rich-message.ts';
import { commandsKey } from './state.ts';
import type { EmulatorState } from './state.ts';
import { formatMessageText, readParseMode } from './text.ts';

/** "Any bot can send an ephemeral message to a user within 15 seconds of the incoming eligible action." */
export const EPHEMERAL_WINDOW_MS = 15_000;

/** Where an ephemeral send goes: its receiver, and the public message it is shown in place of. */
export interface EphemeralSend {
  receiverId: number;
  replacesMessageId: number | undefined;
}

const isGroup = (record: ChatRecord) => record.chat.type === 'group' || record.chat.type === 'supergroup';

const isPresentMember = (state: EmulatorState, record: ChatRecord, userId: number): boolean => {
  const member = memberOf(state, record, userId);
  return member.status === 'creator' || member.status === 'administrator' || member.status === 'member' || (member.status === 'restricted' && member.isMember);
};

/** reply_parameters.ephemeral_message_id (10.2), when given. */
export function replyEphemeralId({ params }: MethodContext): number | undefined {
  const reply = params.json('reply_parameters', 'reply parameters');
  return isObject(reply) && typeof reply.ephemeral_message_id === 'number' ? reply.ephemeral_message_id : undefined;
}

/**
 * ephemeral_message_parameters of a send method, checked as the official text describes; undefined
 * for a public message. A reply to an ephemeral message that is not itself ephemeral is refused.
 */
export function readEphemeralSend(context: MethodContext, record: ChatRecord): EphemeralSend | undefined {
  const { params, state } = context;
  const raw = params.json('ephemeral_message_parameters', 'ephemeral message parameters');
  const replyTo = replyEphemeralId(context);
  if (raw === undefined) {
    if (replyTo !== undefined) throw badRequest('a reply to an ephemeral message must be an ephemeral message');
    return undefined;
  }
  if (!isObject(raw)) throw badRequest("can't parse ephemeral message parameters JSON object");
  const receiverId = raw.receiver_user_id;
  if (typeof receiverId !== 'number' || !Number.isSafeInteger(receiverId)) throw badRequest('field "receiver_user_id" must be of type Number');
  if (!isGroup(record)) throw badRequest('ephemeral messages can be sent only to groups and supergroups');
  const receiver = state.chats.user(receiverId);
  if (receiver?.is_bot === true || receiverId === state.bot.id) throw badRequest("ephemeral messages can't be sent to bots");
  if (receiver === undefined || !isPresentMember(state, record, receiverId)) throw badRequest('the receiver of an ephemeral message must be a member of the chat');
  const now = state.clock.nowMs();
  const queryId = typeof raw.callback_query_id === 'string' ? raw.callback_query_id : undefined;
  const replace = raw.replace_callback_query_message === true;
  let eligible = false;
  let replacesMessageId: number | undefined;
  if (queryId !== undefined) {
    const query = state.callbackQueries.get(queryId);
    if (query === undefined || query.from.id !== receiverId || query.chat_id !== record.chat.id) throw badRequest('callback query not found');
    if (now - query.created_ms > EPHEMERAL_WINDOW_MS) throw badRequest('callback query is too old to answer with an ephemeral message');
    if (replace && query.ephemeral_message_id !== undefined) {
      throw badRequest('replace_callback_query_message must be False for callback queries from ephemeral messages');
    }
    if (replace) replacesMessageId = query.message_id;
    eligible = true;
  } else if (replace) {
    throw badRequest('replace_callback_query_message needs callback_query_id');
  }
  if (replyTo !== undefined) {
    const incoming = state.chats.ephemeral(record.chat.id, receiverId, replyTo);
    if (incoming === undefined || incoming.by_bot) throw badRequest('message to be replied not found');
    if (now - incoming.sent_at_ms > EPHEMERAL_WINDOW_MS) throw badRequest('an ephemeral message may only be replied to within 15 seconds');
    eligible = true;
  }
  const bot = botMember(record, state.bot.id);
  if (!eligible && bot.status !== 'administrator' && bot.status !== 'creator') {
    throw badRequest('an ephemeral message needs a callback_query_id or a reply to an ephemeral message of its receiver from the last 15 seconds');
  }
  return { receiverId, replacesMessageId };
}

/** The menu a user sees in a group, as Telegram picks it: the narrowest scope, their language first. */
export function menuFor(state: EmulatorState, record: ChatRecord, user: User): BotCommand[] | undefined {
  const chatId = record.chat.id;
  const admin = ['creator', 'administrator'].includes(memberOf(state, record, user.id).status);
  const scopes: Array<Record<string, unknown>> = [
    { type: 'chat_member', chat_id: chatId, user_id: user.id },
    ...(admin ? [{ type: 'chat_administrators', chat_id: chatId }] : []),
    { type: 'chat', chat_id: chatId },
    ...(admin ? [{ type: 'all_chat_administrators' }] : []),
    { type: 'all_group_chats' },
    { type: 'default' },
  ];
  for (const scope of scopes) {
    for (const language of [user.language_code ?? '', '']) {
      const found = state.commands.get(commandsKey(scope, language));
      if (found !== undefined) return found.commands;
    }
  }
  return undefined;
}

/** A command a client sends ephemerally: one of this bot's, registered with is_ephemeral in the user's menu there. */
export function isEphemeralCommand(state: EmulatorState, record: ChatRecord, user: User, text: string): boolean {
  if (!isGroup(record)) return false;
  const match = /^\/([a-z0-9_]{1,32})(?:@(\w+))?(?:\s|$)/i.exec(text);
  if (!match) return false;
  if (match[2] !== undefined && match[2].toLowerCase() !== state.bot.username.toLowerCase()) return false;
  const name = match[1]!.toLowerCase();
  return menuFor(state, record, user)?.some((command) => command.command === name && (command as { is_ephemeral?: boolean }).is_ephemeral === true) ?? false;
}

/** The bot's ephemeral message a method addresses by the triple. */
function target(context: MethodContext, missing: string): { record: ChatRecord; message: StoredMessage } {
  const { params, state } = context;
  const receiverId = params.int('receiver_user_id');
  const ephemeralId = params.int('ephemeral_message_id');
  if (receiverId === undefined) throw badRequest('parameter "receiver_user_id" is required');
  if (ephemeralId === undefined || ephemeralId <= 0) throw badRequest('message identifier is not specified');
  const record = state.chats.resolve(params);
  context.noteChat(record.chat.id);
  assertBotCanWrite(record);
  const message = state.chats.ephemeral(record.chat.id, receiverId, ephemeralId);
  if (message === undefined || !message.by_bot) throw badRequest(missing);
  return { record, message };
}

const edited = (state: EmulatorState, message: StoredMessage, changes: Partial<StoredMessage>): true => {
  Object.assign(message, changes, { edit_count: message.edit_count + 1, edit_date: state.clock.unix() });
  state.feed.emit();
  return true;
};

export const editEphemeralMessageText: MethodHandler = (context) => {
  const { params, state } = context;
  const markup = readReplyMarkup(params.json('reply_markup', 'reply keyboard markup'), { inlineOnly: true });
  if (params.has('rich_message')) {
    if (params.has('text')) throw badRequest('only one of text and rich_message may be specified');
    const rich = readRichMessage(params.json('rich_message', 'rich message'));
    const { message } = target(context, 'message to edit not found');
    return edited(state, message, { text: rich.text, entities: [], rich, reply_markup: markup?.inline });
  }
  readParseMode(params.string('parse_mode'));
  if (!params.has('text')) throw badRequest('message text is empty');
  const { message } = target(context, 'message to edit not found');
  const text = formatMessageText({ text: params.string('text'), parseMode: params.string('parse_mode'), entities: params.json('entities', 'message entities') }, state.options);
  if (text.text === message.text && entitiesKey(text.entities) === entitiesKey(message.entities) && markupKey(markup?.inline) === markupKey(message.reply_markup)) {
    throw badRequest(NOT_MODIFIED);
  }
  return edited(state, message, { text: text.text, entities: text.entities, source: params.string('text') ?? '', parse_mode: text.parseMode, reply_markup: markup?.inline, rich: undefined });
};

export const editEphemeralMessageReplyMarkup: MethodHandler = (context) => {
  const { params, state } = context;
  const markup = readReplyMarkup(params.json('reply_markup', 'reply keyboard markup'), { inlineOnly: true });
  const { message } = target(context, 'message to edit not found');
  if (markupKey(markup?.inline) === markupKey(message.reply_markup)) throw badRequest(NOT_MODIFIED);
  return edited(state, message, { reply_markup: markup?.inline });
};

export const deleteEphemeralMessage: MethodHandler = (context) => {
  const { message } = target(context, 'message to delete not found');
  message.deleted = true;
  context.state.feed.emit();
  return true;
};
