import { badRequest } from './errors.ts';
import { readEntitiesParam, trimFormatted, utf16Length } from './entities.ts';
import { parseHtml } from './html.ts';
import type { ParsedText } from './html.ts';
import { parseMarkdownLegacy, parseMarkdownV2 } from './markdown.ts';
import type { BotApiVersion } from './versions.ts';

export const MAX_MESSAGE_LENGTH = 4096;

export type ParseMode = 'HTML' | 'MarkdownV2' | 'Markdown';

export interface TextInput {
  text: string | undefined;
  parseMode: string | undefined;
  entities: unknown;
}

export interface FormatOptions {
  strictHtmlAmpersand: boolean;
  /** the server's Bot API version, which decides the HTML tags its parser knows (default: the current one) */
  botApiVersion?: BotApiVersion;
}

export interface FormattedMessageText extends ParsedText {
  parseMode: ParseMode | undefined;
}

/** Telegram accepts parse_mode in any letter case. */
export function readParseMode(value: string | undefined): ParseMode | undefined {
  if (value === undefined || value === '') return undefined;
  switch (value.toLowerCase()) {
    case 'html':
      return 'HTML';
    case 'markdownv2':
      return 'MarkdownV2';
    case 'markdown':
      return 'Markdown';
    default:
      throw badRequest('unsupported parse_mode');
  }
}

/**
 * Message text as Telegram stores it, parsed and trimmed but not yet length-checked: sendMessage,
 * editMessageText and the message contents of inline results all go through it.
 */
export function parseMessageText(input: TextInput, options: FormatOptions): FormattedMessageText {
  const parseMode = readParseMode(input.parseMode);
  if (input.text === undefined || input.text === '') throw badRequest('message text is empty');
  const parsed = parseFormattedText(input.text, parseMode, input.entities, options);
  const trimmed = trimFormatted(parsed);
  if (trimmed.text === '') throw badRequest('message text is empty');
  return { ...trimmed, parseMode };
}

/** Over the 4096 UTF-16 code units a message text may have, counted after parsing. */
export const exceedsMessageLength = (text: string): boolean => utf16Length(text) > MAX_MESSAGE_LENGTH;

/** The text of sendMessage / editMessageText as Telegram stores it: parsed, trimmed, length-checked. */
export function formatMessageText(input: TextInput, options: FormatOptions): FormattedMessageText {
  const formatted = parseMessageText(input, options);
  if (exceedsMessageLength(formatted.text)) throw badRequest('message is too long');
  return formatted;
}

/** Entity parsing alone (no trimming, no limits): captions and message texts share it. */
export function parseFormattedText(text: string, mode: ParseMode | undefined, entities: unknown, options: FormatOptions): ParsedText {
  switch (mode) {
    case 'HTML':
      return parseHtml(text, { strictAmpersand: options.strictHtmlAmpersand, ...(options.botApiVersion ? { version: options.botApiVersion } : {}) });
    case 'MarkdownV2':
      return parseMarkdownV2(text);
    case 'Markdown':
      return parseMarkdownLegacy(text);
    case undefined:
      return { text, entities: readEntitiesParam(entities, text) };
  }
}
