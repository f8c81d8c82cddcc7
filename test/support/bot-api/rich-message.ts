// InputRichMessage (Bot API 10.1–10.3): exactly one of html, markdown and blocks, within the rich
// message limits (botapi-10.md §1.3), read into the blocks a received Message.rich_message carries.
import type { RichBlock, RichBlockListItem, RichBlockTableCell, RichText } from '@grammyjs/types';
import { badRequest } from './errors.ts';
import { isObject } from './method-context.ts';
import { parseRichHtml, plainOfBlocks, RichReader, type RichMetrics } from './rich-html.ts';

export const MAX_RICH_CHARACTERS = 32_768;
export const MAX_RICH_BLOCKS = 500;
export const MAX_RICH_DEPTH = 16;
export const MAX_TABLE_COLUMNS = 20;

/** A rich message as the emulator keeps it: what the bot sent, and what a reader gets. */
export interface StoredRich {
  /** the InputRichMessage as sent */
  source: Record<string, unknown>;
  /** as Message.rich_message carries them */
  blocks: RichBlock[];
  /** the blocks as lines of plain text (a table row's cells joined by " | ") */
  text: string;
  metrics: RichMetrics;
}

const fail = (detail: string) => badRequest(`can't parse rich message: ${detail}`);

/** The limits, in the order a server would find them broken. */
function checkLimits(metrics: RichMetrics): void {
  if (metrics.columns > MAX_TABLE_COLUMNS) throw badRequest(`too many columns in a rich message table: ${metrics.columns} of at most ${MAX_TABLE_COLUMNS}`);
  if (metrics.depth > MAX_RICH_DEPTH) throw badRequest(`rich message nesting is too deep: ${metrics.depth} of at most ${MAX_RICH_DEPTH} levels`);
  if (metrics.blocks > MAX_RICH_BLOCKS) throw badRequest(`too many blocks in a rich message: ${metrics.blocks} of at most ${MAX_RICH_BLOCKS}`);
  if (metrics.characters > MAX_RICH_CHARACTERS) throw badRequest(`rich message is too long: ${metrics.characters} characters of at most ${MAX_RICH_CHARACTERS}`);
}

const present = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

export function readRichMessage(value: unknown): StoredRich {
  if (!isObject(value)) throw badRequest("can't parse InputRichMessage JSON object");
  const given = (['html', 'markdown', 'blocks'] as const).filter((field) => present(value[field]));
  if (given.length !== 1) throw badRequest(`exactly one of the fields "html", "markdown" and "blocks" must be used in a rich message, found ${given.length === 0 ? 'none' : given.join(', ')}`);
  const reader = new RichReader();
  let blocks: RichBlock[];
  if (given[0] === 'html') {
    if (typeof value.html !== 'string') throw fail('Field "html" must be of type String');
    blocks = reader.blocks(parseRichHtml(value.html));
  } else if (given[0] === 'blocks') {
    if (!Array.isArray(value.blocks)) throw fail('Field "blocks" must be of type Array');
    blocks = new InputBlockReader(reader).blocks(value.blocks, 1);
  } else {
    throw badRequest('rich messages in markdown are not emulated (the emulator reads html and blocks)');
  }
  if (blocks.length === 0) throw badRequest('rich message is empty');
  checkLimits(reader.metrics);
  return { source: structuredClone(value), blocks, text: plainOfBlocks(blocks), metrics: reader.metrics };
}

const TEXT_TYPES = new Set([
  'bold', 'italic', 'underline', 'strikethrough', 'spoiler', 'subscript', 'superscript', 'marked', 'code', 'url', 'date_time',
  'email_address', 'phone_number', 'bank_card_number', 'mention', 'hashtag', 'cashtag', 'bot_command', 'anchor_link',
  'reference', 'reference_link', 'text_mention',
]);

/** InputRichBlock objects (Bot API 10.2) read as received blocks: the subset the emulator emulates. */
class InputBlockReader {
  private readonly reader: RichReader;

  constructor(reader: RichReader) {
    this.reader = reader;
  }

  private get metrics(): RichMetrics {
    return this.reader.metrics;
  }

  private note(depth: number): void {
    this.metrics.blocks += 1;
    this.metrics.depth = Math.max(this.metrics.depth, depth);
  }

  private text(value: unknown, depth: number): RichText {
    if (typeof value === 'string') {
      for (const _ of value) this.metrics.characters += 1;
      return value;
    }
    if (Array.isArray(value)) return value.map((part) => this.text(part, depth));
    if (!isObject(value) || typeof value.type !== 'string') throw fail('RichText must be a String, an Array or an Object with a "type"');
    this.metrics.depth = Math.max(this.metrics.depth, depth);
    if (!TEXT_TYPES.has(value.type)) throw fail(`rich text of type "${value.type}" is not emulated`);
    return { ...(structuredClone(value) as Record<string, unknown>), text: this.text(value.text, depth + 1) } as RichText;
  }

  blocks(values: unknown[], depth: number): RichBlock[] {
    return values.map((value) => this.block(value, depth));
  }

  private block(value: unknown, depth: number): RichBlock {
    if (!isObject(value) || typeof value.type !== 'string') throw fail('InputRichBlock must be an Object with a "type"');
    this.note(depth);
    const inner = depth + 1;
    switch (value.type) {
      case 'paragraph':
      case 'footer':
      case 'pullquote':
      case 'expandable_blockquote':
        return { type: value.type, text: this.text(value.text, inner) } as RichBlock;
      case 'pre':
        return { type: 'pre', text: this.text(value.text, inner), ...(typeof value.language === 'string' ? { language: value.language } : {}) };
      case 'heading': {
        const size = value.size;
        if (size !== 1 && size !== 2 && size !== 3 && size !== 4 && size !== 5 && size !== 6) throw fail('a heading\'s "size" must be 1-6');
        return { type: 'heading', text: this.text(value.text, inner), size };
      }
      case 'divider':
        return { type: 'divider' };
      case 'blockquote':
        if (!Array.isArray(value.blocks)) throw fail('Field "blocks" must be of type Array');
        return { type: 'blockquote', blocks: this.blocks(value.blocks, inner) };
      case 'details':
        if (!Array.isArray(value.blocks)) throw fail('Field "blocks" must be of type Array');
        return { type: 'details', summary: this.text(value.summary, inner), blocks: this.blocks(value.blocks, inner), ...(value.is_open === true ? { is_open: true } : {}) };
      case 'list': {
        if (!Array.isArray(value.items)) throw fail('Field "items" must be of type Array');
        const items: RichBlockListItem[] = value.items.map((item) => {
          if (!isObject(item) || !Array.isArray(item.blocks)) throw fail('InputRichBlockListItem must have "blocks"');
          this.note(inner);
          return { label: '•', blocks: this.blocks(item.blocks, inner + 1) };
        });
        return { type: 'list', items };
      }
      case 'table': {
        if (!Array.isArray(value.cells)) throw fail('Field "cells" must be of type Array');
        const cells = value.cells.map((row) => {
          if (!Array.isArray(row)) throw fail('table cells must be an Array of Arrays');
          this.note(inner);
          this.metrics.columns = Math.max(this.metrics.columns, row.reduce((sum: number, cell) => sum + (isObject(cell) && typeof cell.colspan === 'number' ? cell.colspan : 1), 0));
          return row.map((cell): RichBlockTableCell => {
            if (!isObject(cell)) throw fail('a table cell must be an Object');
            if (!['left', 'center', 'right'].includes(String(cell.align)) || !['top', 'middle', 'bottom'].includes(String(cell.valign))) {
              throw fail('a table cell needs "align" (left, center, right) and "valign" (top, middle, bottom)');
            }
            return {
              ...(cell.text === undefined ? {} : { text: this.text(cell.text, inner + 1) }),
              ...(cell.is_header === true ? { is_header: true as const } : {}),
              ...(typeof cell.colspan === 'number' && cell.colspan > 1 ? { colspan: cell.colspan } : {}),
              ...(typeof cell.rowspan === 'number' && cell.rowspan > 1 ? { rowspan: cell.rowspan } : {}),
              align: cell.align as RichBlockTableCell['align'],
              valign: cell.valign as RichBlockTableCell['valign'],
            };
          });
        });
        return { type: 'table', cells, ...(value.is_bordered === true ? { is_bordered: true } : {}), ...(value.is_striped === true ? { is_striped: true } : {}) };
      }
      default:
        throw fail(`blocks of type "${value.type}" are not emulated`);
    }
  }
}
