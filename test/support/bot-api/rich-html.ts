// The `html` of an InputRichMessage (Bot API 10.1, "Rich HTML style"), read into the blocks a
// received Message.rich_message carries. The tags are the documented ones (botapi-10.md §1.6);
// those the bot has no use for (media, maps, formulas, buttons inside content, custom emoji) are
// refused as not emulated rather than accepted unchecked.
import type { RichBlock, RichBlockListItem, RichBlockTableCell, RichText } from '@grammyjs/types';
import { badRequest } from './errors.ts';
import type { BotApiError } from './errors.ts';

export type HtmlNode = string | { tag: string; attrs: Record<string, string | true>; children: HtmlNode[] };
type Element = Exclude<HtmlNode, string>;

const fail = (detail: string): BotApiError => badRequest(`can't parse rich message: ${detail}`);

const INLINE_TAGS = new Set(['a', 'b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'code', 'mark', 'sub', 'sup', 'tg-spoiler', 'tg-time', 'br']);
const BLOCK_TAGS = new Set([
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'pre', 'footer', 'hr', 'ul', 'ol', 'li', 'blockquote', 'cite', 'aside',
  'table', 'caption', 'tr', 'th', 'td', 'details', 'summary',
]);
/** Documented tags the emulator does not emulate: a bot that needs one needs the emulator taught first. */
const NOT_EMULATED = new Set([
  'tg-reference', 'tg-emoji', 'img', 'tg-math', 'input', 'video', 'audio', 'tg-document', 'figure', 'figcaption', 'tg-map',
  'tg-collage', 'tg-slideshow', 'tg-math-block', 'tg-button', 'tg-button-row', 'tg-thinking',
]);
const VOID_TAGS = new Set(['br', 'hr']);
/** Where each structural tag may stand: its parent. */
const PARENTS: Record<string, readonly string[]> = {
  li: ['ul', 'ol'],
  tr: ['table'],
  td: ['tr'],
  th: ['tr'],
  caption: ['table'],
  summary: ['details'],
  cite: ['blockquote', 'aside'],
};

const NAMED_ENTITIES: Record<string, string> = {
  lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: '\u00a0', hellip: '…', mdash: '—', ndash: '–',
  lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”',
};

const decode = (text: string): string =>
  text.replace(/&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (!body.startsWith('#')) {
      const named = NAMED_ENTITIES[body];
      if (named === undefined) throw fail(`unknown entity "${whole}"`);
      return named;
    }
    const code = body[1] === 'x' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    if (!(code > 0 && code <= 0x10ffff)) throw fail(`bad character reference "${whole}"`);
    return String.fromCodePoint(code);
  });

const ATTRIBUTE = /\s*([a-zA-Z][\w-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>/]+)))?/y;

/** The source as a tree of elements and text, every tag checked against the documented set. */
export function parseRichHtml(source: string): HtmlNode[] {
  const root: Element = { tag: '#root', attrs: {}, children: [] };
  const open: Element[] = [root];
  let at = 0;
  const text = (until: number) => {
    if (until > at) open.at(-1)?.children.push(decode(source.slice(at, until)));
  };
  while (at < source.length) {
    const lt = source.indexOf('<', at);
    if (lt < 0) {
      text(source.length);
      break;
    }
    text(lt);
    const closing = source[lt + 1] === '/';
    const nameMatch = /^[a-zA-Z][\w-]*/.exec(source.slice(lt + (closing ? 2 : 1), lt + 40));
    if (nameMatch === null) throw fail(`a "<" that starts no tag at character ${lt}: use "&lt;"`);
    const tag = nameMatch[0].toLowerCase();
    let cursor = lt + (closing ? 2 : 1) + nameMatch[0].length;
    if (closing) {
      const end = source.indexOf('>', cursor);
      if (end < 0 || source.slice(cursor, end).trim() !== '') throw fail(`unclosed end tag "${tag}"`);
      const top = open.at(-1);
      if (top === undefined || top.tag !== tag) throw fail(`unmatched end tag "</${tag}>", expected "</${top?.tag ?? ''}>"`);
      open.pop();
      at = end + 1;
      continue;
    }
    if (NOT_EMULATED.has(tag)) throw fail(`the tag "${tag}" is documented but not emulated`);
    if (!INLINE_TAGS.has(tag) && !BLOCK_TAGS.has(tag)) throw fail(`unsupported tag "${tag}"`);
    const attrs: Record<string, string | true> = {};
    for (;;) {
      ATTRIBUTE.lastIndex = cursor;
      const attribute = ATTRIBUTE.exec(source);
      if (attribute === null) break;
      const [, name = '', double, single, bare] = attribute;
      attrs[name.toLowerCase()] = double ?? single ?? bare ?? true;
      cursor = ATTRIBUTE.lastIndex;
    }
    const rest = /^\s*(\/?)>/.exec(source.slice(cursor, cursor + 80));
    if (rest === null) throw fail(`unclosed start tag "${tag}"`);
    const parent = open.at(-1) as Element;
    const allowed = PARENTS[tag];
    if (allowed !== undefined && !allowed.includes(parent.tag)) throw fail(`the tag "${tag}" outside ${allowed.map((name) => `"${name}"`).join(' or ')}`);
    const element: Element = { tag, attrs: Object.fromEntries(Object.entries(attrs).map(([name, value]) => [name, typeof value === 'string' ? decode(value) : value])), children: [] };
    parent.children.push(element);
    if (rest[1] !== '/' && !VOID_TAGS.has(tag)) open.push(element);
    at = cursor + rest[0].length;
  }
  if (open.length > 1) throw fail(`can't find end tag corresponding to start tag "${open.at(-1)?.tag}"`);
  return root.children;
}

/** What the limits count (botapi-10.md §1.3). */
export type RichMetrics = { characters: number; blocks: number; depth: number; columns: number };

const charCount = (text: string): number => {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
};

const isBlank = (node: HtmlNode): boolean => typeof node === 'string' && node.trim() === '';
const isInline = (node: HtmlNode): boolean => typeof node === 'string' || INLINE_TAGS.has(node.tag);

const DATE_TIME_FORMAT = /^(r|w?[dD]?[tT]?)$/;
type DateTimeFormat = Extract<RichText, { type: 'date_time' }>['date_time_format'];
const isDateTimeFormat = (format: string): format is DateTimeFormat => DATE_TIME_FORMAT.test(format);

/** Reads the tree into received blocks, counting what the limits count. */
export class RichReader {
  readonly metrics: RichMetrics = { characters: 0, blocks: 0, depth: 0, columns: 0 };

  blocks(nodes: readonly HtmlNode[], depth = 1): RichBlock[] {
    const blocks: RichBlock[] = [];
    let run: HtmlNode[] = [];
    const flush = () => {
      if (run.some((node) => !isBlank(node))) blocks.push(this.count({ type: 'paragraph', text: this.text(run, depth) }, depth));
      run = [];
    };
    for (const node of nodes) {
      if (isInline(node)) run.push(node);
      else {
        flush();
        blocks.push(this.block(node as Element, depth));
      }
    }
    flush();
    return blocks;
  }

  private count<T>(block: T, depth: number): T {
    this.metrics.blocks += 1;
    this.metrics.depth = Math.max(this.metrics.depth, depth);
    return block;
  }

  private block(element: Element, depth: number): RichBlock {
    const { tag, children } = element;
    const inner = depth + 1;
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) return this.count({ type: 'heading', text: this.text(children, inner), size: Number(heading[1]) as 1 | 2 | 3 | 4 | 5 | 6 }, depth);
    switch (tag) {
      case 'p':
        return this.count({ type: 'paragraph', text: this.text(children, inner) }, depth);
      case 'pre':
        return this.count({ type: 'pre', text: this.text(children, inner) }, depth);
      case 'footer':
        return this.count({ type: 'footer', text: this.text(children, inner) }, depth);
      case 'hr':
        return this.count({ type: 'divider' }, depth);
      case 'ul':
      case 'ol':
        return this.list(element, depth);
      case 'blockquote': {
        const cite = children.find((child): child is Element => typeof child !== 'string' && child.tag === 'cite');
        const content = children.filter((child) => child !== cite);
        if (element.attrs.expandable !== undefined) {
          return this.count({ type: 'expandable_blockquote', text: this.text(content, inner), ...(cite ? { credit: this.text(cite.children, inner) } : {}) }, depth);
        }
        return this.count({ type: 'blockquote', blocks: this.blocks(content, inner), ...(cite ? { credit: this.text(cite.children, inner) } : {}) }, depth);
      }
      case 'aside':
        return this.count({ type: 'pullquote', text: this.text(children, inner) }, depth);
      case 'table':
        return this.table(element, depth);
      case 'details': {
        const summary = children.find((child): child is Element => typeof child !== 'string' && child.tag === 'summary');
        if (summary === undefined) throw fail('a "details" without its "summary"');
        const block = this.count({ type: 'details' as const, summary: this.text(summary.children, inner), blocks: [] as RichBlock[], ...(element.attrs.open ? { is_open: true as const } : {}) }, depth);
        block.blocks = this.blocks(children.filter((child) => child !== summary), inner);
        return block;
      }
      default:
        throw fail(`the tag "${tag}" must stand inside its own parent`);
    }
  }

  private list(element: Element, depth: number): RichBlock {
    const list = this.count({ type: 'list' as const, items: [] as RichBlockListItem[] }, depth);
    const ordered = element.tag === 'ol';
    let value = ordered && typeof element.attrs.start === 'string' ? Number(element.attrs.start) : 1;
    for (const child of element.children) {
      if (isBlank(child)) continue;
      if (typeof child === 'string' || child.tag !== 'li') throw fail(`a list holds only "li", found ${typeof child === 'string' ? 'text' : `"${child.tag}"`}`);
      this.count(list, depth + 1);
      list.items.push({ label: ordered ? `${value}.` : '•', blocks: this.blocks(child.children, depth + 2) });
      value += 1;
    }
    return list;
  }

  private table(element: Element, depth: number): RichBlock {
    const caption = element.children.find((child): child is Element => typeof child !== 'string' && child.tag === 'caption');
    const table = this.count(
      {
        type: 'table' as const,
        cells: [] as RichBlockTableCell[][],
        ...(element.attrs.bordered ? { is_bordered: true as const } : {}),
        ...(element.attrs.striped ? { is_striped: true as const } : {}),
        ...(element.attrs.compact ? { is_compact: true as const } : {}),
        ...(caption ? { caption: this.text(caption.children, depth + 1) } : {}),
      },
      depth,
    );
    for (const row of element.children) {
      if (row === caption || isBlank(row)) continue;
      if (typeof row === 'string' || row.tag !== 'tr') throw fail(`a table holds only "tr" and "caption", found ${typeof row === 'string' ? 'text' : `"${row.tag}"`}`);
      this.count(table, depth + 1);
      const cells: RichBlockTableCell[] = [];
      let columns = 0;
      for (const cell of row.children) {
        if (isBlank(cell)) continue;
        if (typeof cell === 'string' || (cell.tag !== 'td' && cell.tag !== 'th')) throw fail('a table row holds only "td" and "th"');
        const span = (name: string) => (typeof cell.attrs[name] === 'string' ? Number(cell.attrs[name]) : 1);
        const align = cell.attrs.align;
        const valign = cell.attrs.valign;
        if (align !== undefined && !['left', 'center', 'right'].includes(String(align))) throw fail(`bad align "${String(align)}"`);
        if (valign !== undefined && !['top', 'middle', 'bottom'].includes(String(valign))) throw fail(`bad valign "${String(valign)}"`);
        columns += span('colspan');
        cells.push({
          ...(cell.children.length > 0 ? { text: this.text(cell.children, depth + 2) } : {}),
          ...(cell.tag === 'th' ? { is_header: true as const } : {}),
          ...(span('colspan') > 1 ? { colspan: span('colspan') } : {}),
          ...(span('rowspan') > 1 ? { rowspan: span('rowspan') } : {}),
          align: (align ?? 'left') as RichBlockTableCell['align'],
          valign: (valign ?? 'top') as RichBlockTableCell['valign'],
        });
      }
      this.metrics.columns = Math.max(this.metrics.columns, columns);
      table.cells.push(cells);
    }
    return table;
  }

  /** Inline content as RichText; a block tag inside it is refused. */
  text(nodes: readonly HtmlNode[], depth: number): RichText {
    const parts: RichText[] = [];
    for (const node of nodes) {
      if (typeof node === 'string') {
        this.metrics.characters += charCount(node);
        parts.push(node);
        continue;
      }
      if (!INLINE_TAGS.has(node.tag)) throw fail(`the block tag "${node.tag}" inside text`);
      this.metrics.depth = Math.max(this.metrics.depth, depth);
      parts.push(this.inline(node, depth));
    }
    return parts.length === 1 ? (parts[0] as RichText) : parts;
  }

  private inline(element: Element, depth: number): RichText {
    const text = () => this.text(element.children, depth + 1);
    switch (element.tag) {
      case 'br':
        this.metrics.characters += 1;
        return '\n';
      case 'b':
      case 'strong':
        return { type: 'bold', text: text() };
      case 'i':
      case 'em':
        return { type: 'italic', text: text() };
      case 'u':
      case 'ins':
        return { type: 'underline', text: text() };
      case 's':
      case 'strike':
      case 'del':
        return { type: 'strikethrough', text: text() };
      case 'code':
        return { type: 'code', text: text() };
      case 'mark':
        return { type: 'marked', text: text() };
      case 'sub':
        return { type: 'subscript', text: text() };
      case 'sup':
        return { type: 'superscript', text: text() };
      case 'tg-spoiler':
        return { type: 'spoiler', text: text() };
      case 'a': {
        const href = element.attrs.href;
        if (typeof href !== 'string' || !URL.canParse(href)) throw fail('a link without a valid "href"');
        return { type: 'url', text: text(), url: href };
      }
      case 'tg-time': {
        const unix = Number(element.attrs.unix);
        const format = typeof element.attrs.format === 'string' ? element.attrs.format : '';
        if (!Number.isInteger(unix) || unix < 0) throw fail('"tg-time" needs a "unix" time');
        if (!isDateTimeFormat(format)) throw fail(`bad date_time format "${format}"`);
        return { type: 'date_time', text: text(), unix_time: unix, date_time_format: format };
      }
      default:
        throw fail(`unsupported tag "${element.tag}"`);
    }
  }
}

/** RichText as the plain text a reader sees. */
export const plainOf = (text: RichText | undefined): string => {
  if (text === undefined) return '';
  if (typeof text === 'string') return text;
  if (Array.isArray(text)) return text.map(plainOf).join('');
  if ('text' in text) return plainOf(text.text);
  if (text.type === 'custom_emoji') return text.alternative_text;
  if (text.type === 'mathematical_expression') return text.expression;
  return '';
};

/** Received blocks as lines of plain text: a table row's cells joined by " | ", a details block's summary over its content. */
export const plainOfBlocks = (blocks: readonly RichBlock[]): string =>
  blocks
    .map((block): string => {
      switch (block.type) {
        case 'paragraph':
        case 'heading':
        case 'pre':
        case 'footer':
        case 'pullquote':
        case 'expandable_blockquote':
          return plainOf(block.text);
        case 'divider':
          return '—';
        case 'list':
          return block.items.map((item) => `${item.label} ${plainOfBlocks(item.blocks)}`).join('\n');
        case 'blockquote':
          return plainOfBlocks(block.blocks);
        case 'table':
          return [...(block.caption === undefined ? [] : [plainOf(block.caption)]), ...block.cells.map((row) => row.map((cell) => plainOf(cell.text)).join(' | '))].join('\n');
        case 'details':
          return [plainOf(block.summary), plainOfBlocks(block.blocks)].join('\n');
        default:
          return '';
      }
    })
    .join('\n');
