// The Markdown parse modes, after tdlib's parse_markdown_v2 and parse_markdown. Kept smaller than
// the HTML parser: the common entities, escaping rules, and Telegram's error descriptions.
import type { MessageEntity } from '@grammyjs/types';
import { badRequest } from './errors.ts';
import type { BotApiError } from './errors.ts';
import { sortEntities } from './entities.ts';
import type { ParsedText } from './html.ts';

const RESERVED_V2 = '_*[]()~`>#+-=|{}.!';

type V2Type = 'Bold' | 'Italic' | 'Underline' | 'Strikethrough' | 'Spoiler' | 'Code' | 'Pre' | 'TextUrl';

interface Open {
  type: V2Type;
  offset: number;
  byteOffset: number;
  language: string;
}

const fail = (detail: string): BotApiError => badRequest(`can't parse entities: ${detail}`);

export function parseMarkdownV2(source: string): ParsedText {
  const at = (index: number): number => Buffer.byteLength(source.slice(0, index), 'utf8');
  let out = '';
  const entities: MessageEntity[] = [];
  const open: Open[] = [];
  let quoteStart: number | undefined;
  const closeQuote = (): void => {
    if (quoteStart !== undefined && out.length > quoteStart) {
      entities.push({ type: 'blockquote', offset: quoteStart, length: out.length - quoteStart });
    }
    quoteStart = undefined;
  };

  for (let i = 0; i < source.length; i++) {
    const c = source[i] ?? '';
    const next = source[i + 1];
    const top = open.at(-1);
    if (c === '\\' && next !== undefined && next.charCodeAt(0) > 0 && next.charCodeAt(0) <= 126) {
      out += next;
      i++;
      continue;
    }
    if (top !== undefined && (top.type === 'Code' || top.type === 'Pre') && c !== '`') {
      out += c;
      continue;
    }
    if (c === '\n' && quoteStart !== undefined && next !== '>') closeQuote();
    if (c === '>' && (i === 0 || source[i - 1] === '\n') && open.length === 0) {
      quoteStart ??= out.length;
      continue;
    }
    if (!RESERVED_V2.includes(c)) {
      out += c;
      continue;
    }
    if (top !== undefined && isEnd(top.type, source, i)) {
      if (top.type === 'Pre') i += 2;
      if (top.type === 'Underline' || top.type === 'Spoiler') i += 1;
      let url = '';
      if (top.type === 'TextUrl') {
        if (source[i + 1] === '(') {
          i += 2;
          while (i < source.length && source[i] !== ')') {
            if (source[i] === '\\' && i + 1 < source.length) i++;
            url += source[i++];
          }
          if (i >= source.length) throw fail(`Can't find end of a url at byte offset ${at(i)}`);
        } else {
          url = out.slice(top.offset);
        }
      }
      const length = out.length - top.offset;
      if (length > 0) entities.push(toEntity(top, length, url));
      open.pop();
      continue;
    }
    const begin = i;
    let type: V2Type;
    let language = '';
    if (c === '_' && next === '_') {
      type = 'Underline';
      i++;
    } else if (c === '_') type = 'Italic';
    else if (c === '*') type = 'Bold';
    else if (c === '~') type = 'Strikethrough';
    else if (c === '|' && next === '|') {
      type = 'Spoiler';
      i++;
    } else if (c === '[') type = 'TextUrl';
    else if (c === '`' && next === '`' && source[i + 2] === '`') {
      type = 'Pre';
      i += 3;
      const lineEnd = source.indexOf('\n', i);
      const first = lineEnd === -1 ? '' : source.slice(i, lineEnd);
      if (lineEnd !== -1 && first !== '' && !/[\s`]/.test(first)) {
        language = first;
        i = lineEnd + 1;
      }
      i--;
    } else if (c === '`') type = 'Code';
    else throw fail(`Character '${c}' is reserved and must be escaped with the preceding '\\'`);
    open.push({ type, offset: out.length, byteOffset: at(begin), language });
  }
  const unclosed = open.at(-1);
  if (unclosed !== undefined) throw fail(`Can't find end of ${unclosed.type} entity at byte offset ${unclosed.byteOffset}`);
  closeQuote();
  return { text: out, entities: sortEntities(entities) };
}

function isEnd(type: V2Type, s: string, i: number): boolean {
  const c = s[i];
  switch (type) {
    case 'Bold':
      return c === '*';
    case 'Italic':
      return c === '_' && s[i + 1] !== '_';
    case 'Underline':
      return c === '_' && s[i + 1] === '_';
    case 'Strikethrough':
      return c === '~';
    case 'Spoiler':
      return c === '|' && s[i + 1] === '|';
    case 'Code':
      return c === '`';
    case 'Pre':
      return c === '`' && s[i + 1] === '`' && s[i + 2] === '`';
    case 'TextUrl':
      return c === ']';
  }
}

function toEntity(open: Open, length: number, url: string): MessageEntity {
  const offset = open.offset;
  switch (open.type) {
    case 'Bold':
      return { type: 'bold', offset, length };
    case 'Italic':
      return { type: 'italic', offset, length };
    case 'Underline':
      return { type: 'underline', offset, length };
    case 'Strikethrough':
      return { type: 'strikethrough', offset, length };
    case 'Spoiler':
      return { type: 'spoiler', offset, length };
    case 'Code':
      return { type: 'code', offset, length };
    case 'Pre':
      return open.language ? { type: 'pre', offset, length, language: open.language } : { type: 'pre', offset, length };
    case 'TextUrl':
      return { type: 'text_link', offset, length, url };
  }
}

/** The legacy "Markdown" mode: *bold*, _italic_, `code`, ```pre```, [text](url), "\" escapes. */
export function parseMarkdownLegacy(source: string): ParsedText {
  const at = (index: number): number => Buffer.byteLength(source.slice(0, index), 'utf8');
  let out = '';
  const entities: MessageEntity[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i] ?? '';
    if (c === '\\' && '_*`['.includes(source[i + 1] ?? ' ')) {
      out += source[++i];
      continue;
    }
    if (!'_*`['.includes(c)) {
      out += c;
      continue;
    }
    const begin = i;
    const isPre = c === '`' && source.startsWith('``', i + 1);
    const end = isPre ? '```' : c === '[' ? ']' : c;
    i += isPre ? 3 : 1;
    const close = source.indexOf(end, i);
    if (close === -1) throw fail(`Can't find end of the entity starting at byte offset ${at(begin)}`);
    const offset = out.length;
    out += source.slice(i, close);
    i = close + end.length - 1;
    const length = out.length - offset;
    if (length === 0) continue;
    if (isPre) entities.push({ type: 'pre', offset, length });
    else if (c === '*') entities.push({ type: 'bold', offset, length });
    else if (c === '_') entities.push({ type: 'italic', offset, length });
    else if (c === '`') entities.push({ type: 'code', offset, length });
    else if (source[i + 1] === '(') {
      const urlEnd = source.indexOf(')', i + 2);
      if (urlEnd === -1) throw fail(`Can't find end of the entity starting at byte offset ${at(begin)}`);
      entities.push({ type: 'text_link', offset, length, url: source.slice(i + 2, urlEnd) });
      i = urlEnd;
    }
  }
  return { text: out, entities: sortEntities(entities) };
}
