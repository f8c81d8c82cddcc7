import type { Translate } from '../../../i18n.ts';
import { escapeHtml, shorten, visibleLength } from './html.ts';

// A record in full as a rich message (Bot API 10.1, the `html` of an InputRichMessage, botapi-10.md
// §1.6): a heading, the key fields, its positions as one table, its other lists as collapsible
// details blocks, and when it was fetched. Telegram takes up to 32,768 characters and 500 blocks
// (each table row and list item one) in a message: a record that fits is one message (an order
// of 60 positions takes some 65 blocks); a larger one is cut into parts as the HTML view is.

/** Telegram's limits for a rich message, with room kept for a part's label. */
export const RICH_CHARACTER_BUDGET = 32_768 - 256;
export const RICH_BLOCK_BUDGET = 500;
/** The part travels in callback data as two digits. */
export const MAX_RICH_PARTS = 99;
/** Portal text in one cell or list entry, at most: one odd value never fills a message. */
export const RICH_CELL_TEXT = 400;

/** "000010" → "10", "000000000010012345" → "10012345": as people say them; a narrow column. */
export const withoutLeadingZeros = (code: string): string => code.trim().replace(/^0+(?=\d)/, '');

/** A table cell: plain text (escaped here), right-aligned for numbers. */
export type RichCell = { text: string; right?: boolean };
export type RichTable = { kind: 'table'; header: readonly RichCell[]; rows: ReadonlyArray<readonly RichCell[]> };
/** A list shown as a details block: its label and count over its entries (HTML). */
export type RichList = { kind: 'list'; label: string; items: readonly string[] };
export type RichSection = RichTable | RichList;

/** A record's content: a title and key-field lines (HTML, null: no value), its sections. */
export type RichContent = { title: string; head: ReadonlyArray<string | null>; sections: readonly RichSection[] };

/** Characters kept on every part for the «обновлено» footer, added after (withFooter): so a record's parts never depend on the time. */
const FOOTER_CHARACTERS = 80;

export type RichRecord = { html: string; part: number; parts: number };

type Slice = { section: number; from: number; to: number };

const cellHtml = (cell: RichCell, tag: 'td' | 'th'): string => `<${tag}${cell.right ? ' align="right"' : ''}>${escapeHtml(shorten(cell.text, RICH_CELL_TEXT))}</${tag}>`;
const rowHtml = (cells: readonly RichCell[], tag: 'td' | 'th'): string => `<tr>${cells.map((cell) => cellHtml(cell, tag)).join('')}</tr>`;
const rowLength = (cells: readonly RichCell[]): number => cells.reduce((sum, cell) => sum + Math.min(cell.text.length, RICH_CELL_TEXT), 0);

const sectionSize = (section: RichSection): number => (section.kind === 'table' ? section.rows.length : section.items.length);

/** What one entry adds to a part: its blocks (a list item and the paragraph it holds are two) and characters. */
const entryCost = (section: RichSection, index: number): { blocks: number; characters: number } =>
  section.kind === 'table'
    ? { blocks: 1, characters: rowLength(section.rows[index] ?? []) }
    : { blocks: 2, characters: visibleLength(section.items[index] ?? '') };

/** What a section's slice costs before its entries: the table and its header row; the details block, its summary and list. */
const sectionCost = (section: RichSection, t: Translate): { blocks: number; characters: number } =>
  section.kind === 'table'
    ? { blocks: 2, characters: rowLength(section.header) }
    : { blocks: 2, characters: visibleLength(t('rich.listRange', { label: section.label, from: 999, to: 999, count: section.items.length })) };

const renderSection = (section: RichSection, { from, to }: Slice, t: Translate): string => {
  if (section.kind === 'table') {
    return `<table bordered striped>${rowHtml(section.header, 'th')}${section.rows.slice(from, to).map((row) => rowHtml(row, 'td')).join('')}</table>`;
  }
  const count = section.items.length;
  const summary = from === 0 && to === count ? t('rich.list', { label: section.label, count }) : t('rich.listRange', { label: section.label, from: from + 1, to, count });
  return `<details><summary>${summary}</summary><ul>${section.items.slice(from, to).map((item) => `<li>${item}</li>`).join('')}</ul></details>`;
};

const renderPart = (content: RichContent, slices: readonly Slice[], label: string | null, t: Translate, tail: string | null): string => {
  const head = content.head.filter((line): line is string => line !== null && line !== '');
  return [
    `<h3>${label === null ? content.title : `${content.title} · ${label}`}</h3>`,
    head.length === 0 ? '' : `<p>${head.join('<br/>')}</p>`,
    ...slices.map((slice) => {
      const section = content.sections[slice.section];
      return section === undefined ? '' : renderSection(section, slice, t);
    }),
    tail === null ? '' : `<p>${tail}</p>`,
  ].join('');
};

/**
 * Greedy, entry by entry, so the same record always gives the same parts: an entry goes on the
 * current part while the part keeps within the blocks and characters a rich message may hold.
 */
const paginate = (content: RichContent, t: Translate): Slice[][] => {
  const frame = {
    // The heading, the key fields, a part's label, a note of lines not shown, the footer.
    blocks: 4,
    characters:
      FOOTER_CHARACTERS + visibleLength([content.title, ...content.head.map((line) => line ?? ''), t('full.part', { part: 99, parts: 99 }), t('full.notShown', { count: 99_999 })].join('')),
  };
  const parts: Slice[][] = [];
  let current: Slice[] = [];
  let used = { ...frame };
  content.sections.forEach((section, s) => {
    const opening = sectionCost(section, t);
    for (let index = 0; index < sectionSize(section); index += 1) {
      const entry = entryCost(section, index);
      const last = current.at(-1);
      const continues = last?.section === s;
      const blocks = used.blocks + entry.blocks + (continues ? 0 : opening.blocks);
      const characters = used.characters + entry.characters + (continues ? 0 : opening.characters);
      if (current.length > 0 && (blocks > RICH_BLOCK_BUDGET || characters > RICH_CHARACTER_BUDGET)) {
        parts.push(current);
        current = [{ section: s, from: index, to: index + 1 }];
        used = { blocks: frame.blocks + opening.blocks + entry.blocks, characters: frame.characters + opening.characters + entry.characters };
      } else {
        if (continues && last) last.to = index + 1;
        else current.push({ section: s, from: index, to: index + 1 });
        used = { blocks, characters };
      }
    }
  });
  parts.push(current);
  return parts;
};

const countEntries = (slices: readonly Slice[]): number => slices.reduce((sum, { from, to }) => sum + to - from, 0);

/** One part of a record as a rich message (the whole record when it fits, as records do), clamped to the parts there are; no footer. */
export const renderRichRecord = (content: RichContent, part: number, t: Translate): RichRecord => {
  const all = paginate(content, t);
  const parts = all.slice(0, MAX_RICH_PARTS);
  const index = Math.min(Math.max(0, Math.trunc(part) || 0), parts.length - 1);
  const slices = parts[index] ?? [];
  const label = parts.length > 1 ? t('full.part', { part: index + 1, parts: parts.length }) : null;
  // Thousands of entries: the parts past the last are left out, and the last part says how many.
  const left = all.length > parts.length && index === parts.length - 1 ? countEntries(all.slice(parts.length).flat()) : 0;
  const tail = left > 0 ? t('full.notShown', { count: left }) : null;
  return { html: renderPart(content, slices, label, t, tail), part: index, parts: parts.length };
};

/** The part with its «обновлено» line (renderFetchedAt) as its footer, when there is one. */
export const withFooter = (record: RichRecord, fetched: string | null): RichRecord =>
  fetched === null ? record : { ...record, html: `${record.html}<footer>${fetched}</footer>` };
