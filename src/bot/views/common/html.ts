import type { Params } from '../../../i18n.ts';

// Messages go out with parse_mode HTML. Locale strings are already HTML; every value that
// comes from the portal or the user passes through escapeHtml before it is put into one.

/** Telegram's limit for a message text, counted after entity parsing. */
export const TELEGRAM_TEXT_LIMIT = 4096;

/** The escape of a character code, for the four characters that need one. */
const escapeOf = (code: number): string | undefined =>
  code === 38 ? '&amp;' : code === 60 ? '&lt;' : code === 62 ? '&gt;' : code === 34 ? '&quot;' : undefined;

// A scan by character code, measured 2–3× cheaper than a regex replace with a lookup; most portal
// values have nothing to escape and come back as they are, without a copy.
export const escapeHtml = (text: string): string => {
  let out = '';
  let from = 0;
  for (let k = 0; k < text.length; k += 1) {
    const escaped = escapeOf(text.charCodeAt(k));
    if (escaped === undefined) continue;
    out += text.slice(from, k) + escaped;
    from = k + 1;
  }
  return from === 0 ? text : out + text.slice(from);
};

/** Escapes every string value, so a translated template can take portal text safely. */
export const escapeParams = (params: Params): Params =>
  Object.fromEntries(
    Object.entries(params).map(([name, value]) => [name, typeof value === 'string' ? escapeHtml(value) : value]),
  );

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

const decodeEntity = (whole: string, body: string): string => {
  if (body.startsWith('#')) {
    const hex = body[1] === 'x' || body[1] === 'X';
    const code = Number.parseInt(body.slice(hex ? 2 : 1), hex ? 16 : 10);
    return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  }
  return NAMED_ENTITIES[body] ?? whole;
};

/** `&lt;`, `&#60;` and `&#x3C;` as the characters they stand for; an unknown entity stays as written. */
export const decodeEntities = (text: string): string => text.replace(/&(#\d+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);/g, decodeEntity);

/** The text Telegram shows for this HTML: tags removed, entities decoded. */
export const toPlainText = (html: string): string => decodeEntities(html.replace(/<[^>]*>/g, ''));

/** The length Telegram counts (UTF-16 code units) of the text it shows for this HTML. */
export const visibleLength = (html: string): number => toPlainText(html).length;

/**
 * Shortens plain text to at most `max` characters (code points, so no emoji is split),
 * ending in "…". Applied before escaping, so an entity is never cut in half.
 */
export const shorten = (text: string, max: number): string => {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars
    .slice(0, Math.max(0, max - 1))
    .join('')
    .trimEnd()}…`;
};
