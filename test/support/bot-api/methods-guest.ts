// answerGuestQuery (Bot API 10.0): one InlineQueryResult (not an array) sent as a message into the
// chat of the guest query, answered once and within the query's lifetime; returns
// SentGuestMessage { inline_message_id }, by which the message is edited later.
import { randomBytes } from 'node:crypto';
import { badRequest, QUERY_TOO_OLD } from './errors.ts';
import { checkResultsOnServer, readInlineResults } from './inline-results.ts';
import { readReplyMarkup } from './keyboard.ts';
import { isObject, type MethodHandler } from './method-context.ts';
import { assertAnswerable } from './queries.ts';
import { GUEST_ANSWER_WINDOW_MS } from './state.ts';

export const answerGuestQuery: MethodHandler = ({ params, state }) => {
  const raw = params.json('result', 'inline query result');
  if (raw === undefined) throw badRequest('result is not specified');
  if (!isObject(raw)) throw badRequest("can't parse inline query result: Inline query result must be an object");
  const { results } = readInlineResults([raw], state.options);
  const [result] = results;
  const id = params.string('guest_query_id');
  const query = id === undefined ? undefined : state.guestQueries.get(id);
  if (query === undefined || result === undefined) throw badRequest(QUERY_TOO_OLD);
  assertAnswerable(query, GUEST_ANSWER_WINDOW_MS, state.clock);
  checkResultsOnServer(results);
  if (result.text === undefined && result.rich === undefined) throw badRequest('the emulator sends only text and rich message results to a guest chat');
  const inlineMessageId = randomBytes(18).toString('base64url');
  state.inlineMessages.set(inlineMessageId, {
    inline_message_id: inlineMessageId,
    guest_query_id: query.id,
    chat_id: query.chat.id,
    text: result.rich?.text ?? result.text?.text ?? '',
    entities: result.rich === undefined ? (result.text?.entities ?? []) : [],
    rich: result.rich,
    reply_markup: readReplyMarkup(raw.reply_markup, { inlineOnly: true })?.inline,
    edit_count: 0,
    edit_date: undefined,
  });
  query.answer = { guest_query_id: query.id, result: structuredClone(raw), inline_message_id: inlineMessageId, at_ms: state.clock.nowMs() };
  state.feed.emit();
  return { inline_message_id: inlineMessageId };
};
