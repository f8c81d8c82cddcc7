// Telegram's HTML parse mode, following tdlib's parse_html (td/telegram/MessageEntity.cpp) closely
// enough that its error descriptions and byte offsets come out the same.
import type { MessageEntity } from '@grammyjs/types';
import { badRequest } from './errors.ts';
import type { BotApiError } from './errors.ts';
import { sortEntities } from './entities.ts';
import { closeEntity } from './html-tags.ts';
import type { OpenTag, RawEntity } from './html-tags.ts';
import { atLeast, CURRENT_BOT_API_VERSION, HTML_TAGS_SINCE, type BotApiVersion } from './versions.ts';

export interface ParsedText {
  text: string;
  entities: MessageEntity[];
}

export interface HtmlOptions {
  /**
   * Telegram itself keeps a stray "&" as text, but its documentation requires escaping it, and
   * a bot that forgets `&amp;` usually forgets `&lt;` too: reject it unless this is false.
   */
  strictAmpersand?: boolean;
  /** The server's Bot API version: a tag newer than it is unknown to its parser (default: the current one). */
  version?: BotApiVersion;
}

const SUPPORTED_TAGS = new Set([
  'a', 'b', 'strong', 'i', 'em', 's', 'strike', 'del', 'u', 'ins', 'tg-spoiler', 'tg-emoji', 'span', 'pre',
  'code', 'blockquote', 'tg-time',
]);

/** Whether a server of this version knows the tag. */
const knownTag = (tag: string, version: BotApiVersion): boolean => {
  const since = HTML_TAGS_SINCE[tag];
  return SUPPORTED_TAGS.has(tag) && (since === undefined || atLeast(version, since));
};

const NAMED_ENTITIES: Record<string, number> = { lt: 0x3c, gt: 0x3e, amp: 0x26, quot: 0x22 };

// tdlib's is_space, with the end of the string standing in for its terminating NUL.
const isSpace = (c: string | undefined): boolean =>
  c === undefined || c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\v' || c === '\0';
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);
const isAlpha = (c: string | undefined): boolean => c !== undefined && /^[a-zA-Z]$/.test(c);
const isNameTokenChar = (c: string | undefined): boolean => c !== undefined && /^[a-zA-Z0-9.-]$/.test(c);

/** Decodes the character reference at `pos` (which holds "&"); undefined when it is not one. */
export function decodeHtmlEntity(s: string, pos: number): { code: number; end: number } | undefined {
  let end = pos + 1;
  let code = 0;
  if (s[end] === '#') {
    end++;
    if (s[end] === 'x') {
      end++;
      while (isHex(s[end])) code = code * 16 + parseInt(s[end++] ?? '0', 16);
    } else {
      while (isDigit(s[end])) code = code * 10 + Number(s[end++]);
    }
    if (code === 0 || code >= 0x10ffff || end - pos >= 10) return undefined;
  } else {
    while (isAlpha(s[end])) end++;
    const named = NAMED_ENTITIES[s.slice(pos + 1, end)];
    if (named === undefined) return undefined;
    code = named;
  }
  if (s[end] === ';') end++;
  return { code, end };
}

export function parseHtml(source: string, options: HtmlOptions = {}): ParsedText {
  const strictAmpersand = options.strictAmpersand ?? true;
  const version = options.version ?? CURRENT_BOT_API_VERSION;
  const fail = (detail: string): BotApiError => badRequest(`can't parse entities: ${detail}`);
  const at = (index: number): number => Buffer.byteLength(source.slice(0, index), 'utf8');
  const n = source.length;
  let out = '';
  const open: OpenTag[] = [];
  const raw: RawEntity[] = [];

  for (let i = 0; i < n; i++) {
    const c = source[i];
    if (c === '&') {
      const decoded = decodeHtmlEntity(source, i);
      if (decoded !== undefined) {
        out += String.fromCodePoint(decoded.code);
        i = decoded.end - 1;
        continue;
      }
      if (strictAmpersand) throw fail(`Unescaped "&" at byte offset ${at(i)}: use "&amp;"`);
    }
    if (c !== '<') {
      out += c;
      continue;
    }

    const begin = i++;
    if (source[i] !== '/') {
      while (!isSpace(source[i]) && source[i] !== '>') i++;
      if (i >= n) throw fail(`Unclosed start tag at byte offset ${at(begin)}`);
      const tag = source.slice(begin + 1, i).toLowerCase();
      if (!knownTag(tag, version)) throw fail(`Unsupported start tag "${tag}" at byte offset ${at(begin)}`);
      let argument = '';
      while (source[i] !== '>') {
        while (i < n && isSpace(source[i])) i++;
        if (source[i] === '>') break;
        const nameBegin = i;
        while (!isSpace(source[i]) && source[i] !== '=' && source[i] !== '>') i++;
        const name = source.slice(nameBegin, i);
        if (name === '') throw fail(`Empty attribute name in the tag "${tag}" at byte offset ${at(begin)}`);
        while (i < n && isSpace(source[i])) i++;
        if (source[i] !== '=') {
          if (tag === 'blockquote' && name === 'expandable') {
            if (i >= n) throw fail(`Unclosed start tag at byte offset ${at(begin)}`);
            argument = 'expandable';
            continue;
          }
          throw fail(`Expected equal sign in declaration of an attribute of the tag "${tag}" at byte offset ${at(begin)}`);
        }
        i++;
        while (i < n && isSpace(source[i])) i++;
        if (i >= n) throw fail(`Unclosed start tag "${tag}" at byte offset ${at(begin)}`);
        let value = '';
        const quote = source[i];
        if (quote !== '"' && quote !== "'") {
          const tokenBegin = i;
          while (isNameTokenChar(source[i])) i++;
          value = source.slice(tokenBegin, i).toLowerCase();
          if (!isSpace(source[i]) && source[i] !== '>') {
            throw fail(`Unexpected end of name token at byte offset ${at(tokenBegin)}`);
          }
        } else {
          i++;
          while (i < n && source[i] !== quote) {
            const decoded = source[i] === '&' ? decodeHtmlEntity(source, i) : undefined;
            if (decoded !== undefined) {
              value += String.fromCodePoint(decoded.code);
              i = decoded.end;
            } else {
              value += source[i++];
            }
          }
          if (source[i] === quote) i++;
        }
        if (i >= n) throw fail(`Unclosed start tag at byte offset ${at(begin)}`);
        if (tag === 'a' && name === 'href') argument = value;
        else if (tag === 'code' && name === 'class' && value.startsWith('language-')) argument = value.slice(9);
        else if (tag === 'span' && name === 'class' && value.startsWith('tg-')) argument = value.slice(3);
        else if (tag === 'tg-emoji' && name === 'emoji-id') argument = value;
        else if (tag === 'blockquote' && name === 'expandable') argument = 'expandable';
        else if (tag === 'tg-time' && (name === 'unix' || name === 'format')) argument = `${argument}${name}=${value};`;
      }
      if (tag === 'span' && argument !== 'spoiler') {
        throw fail(`Tag "span" must have class "tg-spoiler" at byte offset ${at(begin)}`);
      }
      open.push({ tag, argument, offset: out.length });
    } else {
      const top = open.at(-1);
      if (top === undefined) throw fail(`Unexpected end tag at byte offset ${at(begin)}`);
      while (!isSpace(source[i]) && source[i] !== '>') i++;
      const endTag = source.slice(begin + 2, i).toLowerCase();
      while (i < n && isSpace(source[i])) i++;
      if (source[i] !== '>') throw fail(`Unclosed end tag at byte offset ${at(begin)}`);
      if (endTag !== '' && endTag !== top.tag) {
        throw fail(`Unmatched end tag at byte offset ${at(begin)}, expected "</${top.tag}>", found "</${endTag}>"`);
      }
      if (out.length > top.offset) closeEntity(top, out, raw, fail);
      open.pop();
    }
  }
  const unclosed = open.at(-1);
  if (unclosed !== undefined) throw fail(`Can't find end tag corresponding to start tag "${unclosed.tag}"`);
  if (!out.isWellFormed()) {
    throw fail('Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units');
  }
  return { text: out, entities: sortEntities(raw.map((r) => r.entity)) };
}
