// answerCallbackQuery, sendChatAction, getChat, leaveChat (answerInlineQuery is in methods-inline.ts).
import { assertBotCanWrite } from './chats.ts';
import { badRequest, QUERY_TOO_OLD } from './errors.ts';
import type { MethodHandler } from './method-context.ts';
import { assertAnswerable } from './queries.ts';
import { CALLBACK_ANSWER_WINDOW_MS } from './state.ts';

export const MAX_CALLBACK_ANSWER_LENGTH = 200;

const CHAT_ACTIONS = new Set([
  'typing', 'upload_photo', 'record_video', 'upload_video', 'record_voice', 'upload_voice', 'upload_document',
  'choose_sticker', 'find_location', 'record_video_note', 'upload_video_note',
]);

export const answerCallbackQuery: MethodHandler = ({ params, state, noteChat }) => {
  const text = params.string('text');
  if (text !== undefined && text.length > MAX_CALLBACK_ANSWER_LENGTH) throw badRequest('MESSAGE_TOO_LONG');
  const id = params.string('callback_query_id');
  const query = id === undefined ? undefined : state.callbackQueries.get(id);
  if (query === undefined) throw badRequest(QUERY_TOO_OLD);
  noteChat(query.chat_id);
  assertAnswerable(query, CALLBACK_ANSWER_WINDOW_MS, state.clock);
  query.answer = {
    text,
    show_alert: params.bool('show_alert'),
    url: params.string('url'),
    cache_time: params.int('cache_time'),
    at_ms: state.clock.nowMs(),
  };
  state.feed.emit();
  return true;
};

export const sendChatAction: MethodHandler = ({ params, state, noteChat }) => {
  const record = state.chats.resolve(params);
  noteChat(record.chat.id);
  const action = params.string('action');
  if (action === undefined || !CHAT_ACTIONS.has(action)) throw badRequest('wrong parameter action in request');
  assertBotCanWrite(record);
  record.actions.push({ action, at_ms: state.clock.nowMs(), message_thread_id: params.int('message_thread_id') });
  state.feed.emit();
  return true;
};

export const getChat: MethodHandler = ({ params, state, noteChat }) => {
  const record = state.chats.resolve(params);
  noteChat(record.chat.id);
  return { ...structuredClone(record.chat), accent_color_id: 0, max_reaction_count: 11 };
};

export const leaveChat: MethodHandler = ({ params, state, noteChat }) => {
  const record = state.chats.resolve(params);
  noteChat(record.chat.id);
  if (record.chat.type === 'private') throw badRequest("chat member status can't be changed in private chats");
  record.botLeft = true;
  state.feed.emit();
  return true;
};
