// Message entities: ordering, the `entities` parameter, trimming, and the entities Telegram adds
// to incoming user text. Offsets and lengths are UTF-16 code units, which is what JS strings index.
import type { MessageEntity } from '@grammyjs/types';
import { badRequest } from './errors.ts';
import type { ParsedText } from './html.ts';

// tdlib's get_type_priority: at equal offset and length, lower sorts first
const PRIORITY: Record<string, number> = {
  blockquote: 0, expandable_blockquote: 0, pre: 11, code: 20, text_link: 49, text_mention: 49,
  bold: 90, italic: 91, underline: 92, strikethrough: 93, spoiler: 94, custom_emoji: 99,
};

export function sortEntities(entities: MessageEntity[]): MessageEntity[] {
  return [...entities].sort(
    (a, b) => a.offset - b.offset || b.length - a.length || (PRIORITY[a.type] ?? 50) - (PRIORITY[b.type] ?? 50),
  );
}

const SIMPLE_TYPES = new Set([
  'mention', 'hashtag', 'cashtag', 'bot_command', 'url', 'email', 'phone_number', 'bold', 'italic', 'underline',
  'strikethrough', 'spoiler', 'code', 'blockquote', 'expandable_blockquote',
]);

/** Reads the `entities` parameter of a message (used when parse_mode is absent). */
export function readEntitiesParam(value: unknown, text: string): MessageEntity[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw badRequest("can't parse entities JSON object");
  const result: MessageEntity[] = [];
  for (const item of value as unknown[]) {
    if (typeof item !== 'object' || item === null) throw badRequest("can't parse MessageEntity: MessageEntity must be an Object");
    const { type, offset, length } = item as Record<string, unknown>;
    if (typeof type !== 'string') throw badRequest(`can't parse MessageEntity: Field "type" must be of type String`);
    if (!Number.isInteger(offset) || !Number.isInteger(length)) {
      throw badRequest(`can't parse MessageEntity: Field "offset" must be of type Number`);
    }
    const start = offset as number;
    // like Telegram, entities outside the text are dropped and overlong ones cut at its end
    const end = Math.min(start + (length as number), text.length);
    if (start < 0 || end <= start) continue;
    result.push(entityOfType(type, start, end - start, item as Record<string, unknown>));
  }
  return sortEntities(result);
}

function entityOfType(type: string, offset: number, length: number, item: Record<string, unknown>): MessageEntity {
  if (SIMPLE_TYPES.has(type)) return { type, offset, length } as MessageEntity;
  switch (type) {
    case 'pre':
      return typeof item.language === 'string' && item.language !== ''
        ? { type, offset, length, language: item.language }
        : { type, offset, length };
    case 'text_link':
      if (typeof item.url !== 'string' || item.url === '') throw badRequest("can't parse entities: Wrong URL");
      return { type, offset, length, url: item.url };
    case 'text_mention': {
      const user = item.user as { id?: unknown } | undefined;
      if (typeof user?.id !== 'number') throw badRequest("can't parse MessageEntity: Field \"user\" must be of type Object");
      return { type, offset, length, user: { id: user.id, is_bot: false, first_name: '' } };
    }
    case 'date_time': {
      const format = typeof item.date_time_format === 'string' ? item.date_time_format : '';
      if (!Number.isInteger(item.unix_time) || !/^(r|w?[dD]?[tT]?)$/.test(format)) throw badRequest("can't parse MessageEntity: wrong date_time entity");
      return { type, offset, length, unix_time: item.unix_time as number, date_time_format: format as Extract<MessageEntity, { type: 'date_time' }>['date_time_format'] };
    }
    case 'custom_emoji':
      if (typeof item.custom_emoji_id !== 'string' || !/^[1-9][0-9]*$/.test(item.custom_emoji_id)) {
        throw badRequest('Invalid custom emoji identifier specified');
      }
      return { type, offset, length, custom_emoji_id: item.custom_emoji_id };
    default:
      throw badRequest(`can't parse MessageEntity: Unsupported type "${type}"`);
  }
}

const SPLITTABLE = new Set(['bold', 'italic', 'underline', 'strikethrough', 'spoiler']);

/**
 * tdlib's fix_formatted_text: trailing whitespace goes (entities are cut at the new end), then
 * leading spaces and newlines before the first entity; formatting over whitespace only is dropped.
 */
export function trimFormatted({ text, entities }: ParsedText): ParsedText {
  const trimmedEnd = text.trimEnd().length;
  let kept = entities
    .filter((e) => e.offset < trimmedEnd)
    .map((e) => (e.offset + e.length > trimmedEnd ? { ...e, length: trimmedEnd - e.offset } : e));
  const firstEntity = kept.length === 0 ? trimmedEnd : Math.min(...kept.map((e) => e.offset));
  let start = 0;
  while (start < firstEntity && (text[start] === ' ' || text[start] === '\n')) start++;
  const result = text.slice(start, trimmedEnd);
  kept = kept
    .map((e) => (start === 0 ? e : { ...e, offset: e.offset - start }))
    .filter((e) => !(SPLITTABLE.has(e.type) && result.slice(e.offset, e.offset + e.length).trim() === ''));
  return { text: result, entities: sortEntities(kept) };
}

/** Canonical form for "is this the same content" comparisons. */
export const entitiesKey = (entities: MessageEntity[]): string =>
  JSON.stringify(sortEntities(entities).map((e) => Object.fromEntries(Object.entries(e).sort(([a], [b]) => a.localeCompare(b)))));

const BOT_COMMAND = /(?<![A-Za-z0-9_/<>])\/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![A-Za-z0-9_/<>@])/g;

/** The bot_command entities Telegram finds in text a user sends ("/start", "/find@some_bot"). */
export function findBotCommands(text: string): MessageEntity[] {
  return [...text.matchAll(BOT_COMMAND)].map((m) => ({ type: 'bot_command', offset: m.index, length: m[0].length }));
}

// "@username" where a word starts (not inside "/cmd@bot" or an e-mail address); usernames are 5–32 of A–Z, a–z, 0–9 and _.
const MENTION = /(?<![A-Za-z0-9_@/.])@[A-Za-z0-9_]{5,32}(?![A-Za-z0-9_@])/g;

/** The entities Telegram finds in text or a caption a user sends: bot commands and @mentions. */
export function findUserEntities(text: string): MessageEntity[] {
  const mentions: MessageEntity[] = [...text.matchAll(MENTION)].map((m) => ({ type: 'mention', offset: m.index, length: m[0].length }));
  return sortEntities([...findBotCommands(text), ...mentions]);
}

/** Telegram's text limits count UTF-16 code units, exactly what String#length counts. */
export const utf16Length = (text: string): number => text.length;
