// answerInlineQuery: parameters, the results button and the results as the Bot API server and
// tdlib read them, then what Telegram checks once it looks the query up.
import { badRequest, QUERY_TOO_OLD } from './errors.ts';
import { checkResultsButton, readResultsButton } from './inline-button.ts';
import { checkResultsOnServer, readInlineResults } from './inline-results.ts';
import type { MethodHandler } from './method-context.ts';
import type { Params } from './params.ts';
import { assertAnswerable } from './queries.ts';
import { INLINE_ANSWER_WINDOW_MS } from './state.ts';
import type { InlineAnswerRecord } from './state.ts';

export const DEFAULT_INLINE_CACHE_TIME = 300;
export const MAX_INLINE_CACHE_TIME = 86_400;
export const MAX_NEXT_OFFSET_BYTES = 64;

// Stricter than Telegram, which reads anything but true as false and clamps cache_time into 0..86400:
// a bot sending something else has a bug the emulator should show.
function readStrictBool(params: Params, name: string): boolean {
  const value = params.raw[name];
  if (value === undefined || value === null || value === '') return false;
  if (value === true || value === 'true' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 0 || value === '0') return false;
  throw badRequest(`${name} must be a Boolean (the emulator is stricter here: Telegram reads it as false)`);
}

function readCacheTime(params: Params): number {
  if (!params.has('cache_time')) return DEFAULT_INLINE_CACHE_TIME;
  const value = params.int('cache_time');
  if (value === undefined || value < 0) {
    throw badRequest('cache_time must be a non-negative Integer (the emulator is stricter here: Telegram uses 0)');
  }
  return Math.min(value, MAX_INLINE_CACHE_TIME);
}

export const answerInlineQuery: MethodHandler = ({ params, state }) => {
  const isPersonal = readStrictBool(params, 'is_personal');
  const cacheTime = readCacheTime(params);
  const nextOffset = params.string('next_offset') ?? '';
  const button = readResultsButton(params);
  const { values, results } = readInlineResults(params.raw.results, state.options);
  if (button !== undefined) checkResultsButton(button);

  const id = params.string('inline_query_id');
  const query = id === undefined ? undefined : state.inlineQueries.get(id);
  if (query === undefined) throw badRequest(QUERY_TOO_OLD);
  assertAnswerable(query, INLINE_ANSWER_WINDOW_MS, state.clock);
  if (Buffer.byteLength(nextOffset, 'utf8') > MAX_NEXT_OFFSET_BYTES) throw badRequest('NEXT_OFFSET_INVALID');
  if (button !== undefined && button.text.trim() === '') throw badRequest('SWITCH_PM_TEXT_EMPTY');
  checkResultsOnServer(results);

  const answer: InlineAnswerRecord = {
    inline_query_id: query.id,
    results: structuredClone(values),
    params: structuredClone(params.raw),
    at_ms: state.clock.nowMs(),
    cache_time: cacheTime,
    is_personal: isPersonal,
    next_offset: nextOffset,
    button: structuredClone(button),
  };
  query.answer = answer;
  state.inlineAnswers.push(structuredClone(answer));
  state.feed.emit();
  return true;
};
