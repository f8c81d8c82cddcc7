// The `results` of answerInlineQuery, read in Telegram's order: the Bot API server parses each
// result (its errors read "can't parse inline query result: ..."), tdlib checks reply markup and
// trims message texts, and Telegram's servers check ids, titles and lengths (checkResultsOnServer,
// called once the query itself is known to be answerable). Message texts go through the very
// code sendMessage uses.
import { BotApiError, badRequest } from './errors.ts';
import { JsonFields } from './json-fields.ts';
import { readReplyMarkup } from './keyboard.ts';
import { isObject } from './method-context.ts';
import { exceedsMessageLength, parseFormattedText, parseMessageText, readParseMode } from './text.ts';
import type { FormatOptions, FormattedMessageText } from './text.ts';
import { readRichMessage, type StoredRich } from './rich-message.ts';

export const MAX_INLINE_RESULTS = 50;
export const MAX_RESULT_ID_BYTES = 64;

export interface ReadResult {
  id: string;
  type: string;
  /** articles only: the title, which Telegram requires to be non-empty */
  title: string | undefined;
  /** a text message content (input_message_content.message_text, or the legacy message_text) */
  text: FormattedMessageText | undefined;
  /** a rich message content (InputRichMessageContent, 10.1) */
  rich?: StoredRich | undefined;
}

const resultError = (detail: string): BotApiError => badRequest(`can't parse inline query result: ${detail}`);

// what the Bot API server itself reports (as opposed to tdlib and the servers behind it), and so prefixes
const BOT_API_LEVEL = /^(can't parse |field "|unsupported parse_mode)/i;

/** Runs shared validation code, giving the errors the Bot API server raises the result prefix. */
function inResult<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    const detail = error instanceof BotApiError ? error.description.replace(/^Bad Request: /, '') : '';
    if (error instanceof BotApiError && BOT_API_LEVEL.test(detail)) {
      throw resultError(detail.charAt(0).toUpperCase() + detail.slice(1));
    }
    throw error;
  }
}

/** Parses the results parameter (JSON text or an already decoded array). */
export function readInlineResults(raw: unknown, options: FormatOptions): { values: unknown[]; results: ReadResult[] } {
  let values = raw;
  if (typeof values === 'string' && values !== '') {
    try {
      values = JSON.parse(values) as unknown;
    } catch (error) {
      throw badRequest(`can't parse JSON encoded inline query results: ${(error as Error).message}`);
    }
  }
  if (values === undefined || values === null || values === '') return { values: [], results: [] };
  if (!Array.isArray(values)) throw badRequest('expected an Array of inline query results');
  // current Bot API servers count before asking Telegram, whose own answer was RESULTS_TOO_MUCH
  if (values.length > MAX_INLINE_RESULTS) throw badRequest('too many inline query results specified');
  return { values, results: (values as unknown[]).map((value) => readResult(value, options)) };
}

function readResult(value: unknown, options: FormatOptions): ReadResult {
  if (!isObject(value)) throw resultError('Inline query result must be an object');
  const fields = new JsonFields(value, resultError);
  const type = fields.requiredString('type').toLowerCase();
  const id = fields.requiredString('id');
  const isArticle = type === 'article';
  const content = fields.optionalObject('input_message_content');
  const rich = content !== undefined && content.rich_message !== undefined && content.rich_message !== null ? inResult(() => readRichMessage(content.rich_message)) : undefined;
  const text = rich !== undefined ? undefined : content === undefined ? readLegacyText(fields, isArticle, options) : readContent(content, isArticle, options);
  const caption = fields.optionalString('caption');
  const parseMode = fields.optionalString('parse_mode');
  if (caption !== '') {
    const entities = Array.isArray(value.caption_entities) ? value.caption_entities : undefined;
    inResult(() => parseFormattedText(caption, readParseMode(parseMode), entities, options));
  }
  fields.optionalBool('show_caption_above_media');
  const markup = fields.optionalObject('reply_markup');
  if (markup !== undefined) inResult(() => readReplyMarkup(markup, { inlineOnly: true }));
  const thumb = ['thumbnail_url', 'thumbnail_width', 'thumbnail_height'].some((f) => fields.has(f)) ? 'thumbnail' : 'thumb';
  fields.optionalString(`${thumb}_url`);
  fields.optionalNumber(`${thumb}_width`);
  fields.optionalNumber(`${thumb}_height`);
  const readType = TYPES[type];
  if (readType === undefined) throw resultError(`type "${type}" is unsupported for the inline query result`);
  readType(fields);
  return { id, type, title: isArticle ? fields.requiredString('title') : undefined, text, rich };
}

/** message_text (with parse_mode and entities) on the result itself, from before input_message_content. */
function readLegacyText(fields: JsonFields, isArticle: boolean, options: FormatOptions): FormattedMessageText | undefined {
  const text = isArticle ? fields.requiredString('message_text') : fields.optionalString('message_text');
  fields.optionalBool('disable_web_page_preview');
  const parseMode = fields.optionalString('parse_mode');
  if (text === '' && !isArticle) return undefined;
  if (text === '') throw resultError('Message text is empty');
  return readText(text, parseMode, fields.object.entities, options);
}

/** InputMessageContent: text, location or venue, contact, invoice; articles must have one. */
function readContent(content: Record<string, unknown>, required: boolean, options: FormatOptions): FormattedMessageText | undefined {
  const fields = new JsonFields(content, resultError);
  const messageText = fields.optionalString('message_text');
  if (messageText !== '') {
    if (fields.has('link_preview_options')) fields.requiredObject('link_preview_options');
    else fields.optionalBool('disable_web_page_preview');
    return readText(messageText, fields.optionalString('parse_mode'), content.entities, options);
  }
  if (fields.has('latitude') && fields.has('longitude')) {
    fields.requiredNumber('latitude');
    fields.requiredNumber('longitude');
    if (fields.has('title') && fields.has('address')) ['title', 'address'].forEach((f) => fields.requiredString(f));
    return undefined;
  }
  if (fields.has('phone_number')) {
    ['phone_number', 'first_name'].forEach((f) => fields.requiredString(f));
    return undefined;
  }
  if (fields.has('payload')) {
    ['title', 'description', 'payload', 'currency'].forEach((f) => fields.requiredString(f));
    fields.requiredArray('prices');
    return undefined;
  }
  if (required) throw resultError('Input message content is not specified');
  return undefined;
}

function readText(text: string, parseMode: string, entities: unknown, options: FormatOptions): FormattedMessageText {
  // the Bot API server reads `entities` only when it is an array; the 4096 limit is the servers' (MESSAGE_TOO_LONG)
  return inResult(() => parseMessageText({ text, parseMode, entities: Array.isArray(entities) ? entities : undefined }, options));
}

/** A URL field, or else a file id field, as each media type requires (the Bot API's get_inline_query_result). */
const urlOrFileId = (fields: JsonFields, kind: string, needsWithUrl: string[] = []): void => {
  const url = fields.optionalString(`${kind}_url`);
  if (url === '') fields.requiredString(`${kind}_file_id`);
  else needsWithUrl.forEach((f) => fields.requiredString(f));
};

const TYPES: Record<string, (fields: JsonFields) => void> = {
  article: (f) => {
    f.optionalString('url');
    f.optionalBool('hide_url');
    f.optionalString('description');
  },
  audio: (f) => urlOrFileId(f, 'audio', ['title']),
  contact: (f) => ['phone_number', 'first_name'].forEach((name) => f.requiredString(name)),
  document: (f) => {
    f.requiredString('title');
    urlOrFileId(f, 'document', ['mime_type']);
  },
  game: (f) => void f.requiredString('game_short_name'),
  gif: (f) => urlOrFileId(f, 'gif'),
  location: (f) => {
    f.requiredNumber('latitude');
    f.requiredNumber('longitude');
    f.requiredString('title');
  },
  mpeg4_gif: (f) => urlOrFileId(f, 'mpeg4'),
  photo: (f) => urlOrFileId(f, 'photo'),
  sticker: (f) => void f.requiredString('sticker_file_id'),
  venue: (f) => {
    f.requiredNumber('latitude');
    f.requiredNumber('longitude');
    ['title', 'address'].forEach((name) => f.requiredString(name));
  },
  video: (f) => {
    f.requiredString('title');
    urlOrFileId(f, 'video', ['mime_type']);
  },
  voice: (f) => {
    f.requiredString('title');
    urlOrFileId(f, 'voice');
  },
};

/** What Telegram's servers check once the query is known: ids, article titles, text lengths. */
export function checkResultsOnServer(results: ReadResult[]): void {
  const seen = new Set<string>();
  for (const result of results) {
    const bytes = Buffer.byteLength(result.id, 'utf8');
    if (bytes < 1 || bytes > MAX_RESULT_ID_BYTES) throw badRequest('RESULT_ID_INVALID');
    if (seen.has(result.id)) throw badRequest('RESULT_ID_DUPLICATE');
    seen.add(result.id);
    if (result.title !== undefined && result.title.trim() === '') throw badRequest('ARTICLE_TITLE_EMPTY');
    if (result.text !== undefined && exceedsMessageLength(result.text.text)) throw badRequest('MESSAGE_TOO_LONG');
  }
}
