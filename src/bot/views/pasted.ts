import type { InlineKeyboardButton } from '../../telegram/telegraf/core.ts';
import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Order, Specification } from '../../portal/schemas.ts';
import type { Results } from '../../portal/client.ts';
import type { Query } from '../../query.ts';
import { MAX_IDENTIFIERS } from '../../recognise.ts';
import { canInline, packCallback, type QueryRef } from '../callback-data/codec.ts';
import { recordId } from '../callback-data/record-id.ts';
import type { View } from '../../telegram/view.ts';
import { clip, say, upTo } from './common/card-parts.ts';
import { describeQuery } from './common/describe-query.ts';
import { escapeHtml, TELEGRAM_TEXT_LIMIT, visibleLength } from './common/html.ts';
import { orderCurrency } from './order/card.ts';
import { renderNothingFound } from './results.ts';
import { recordsOf, withViews } from './resources.ts';

// What pasted numbers are answered with. Several in a private chat (or a mention): a short card
// per record found, a line per number that found nothing. A group's /autolookup: a compact line
// per record found and nothing else. A material code: its orders and specifications as two
// buttons with their counts; a date: the question whose records, as two buttons.

/** What one identifier of the text came to. */
export type PastedItem =
  | { kind: 'records'; ref: QueryRef; results: Results }
  | { kind: 'material'; code: string; orders: number; specifications: number }
  | { kind: 'date'; date: string }
  | { kind: 'badDate'; text: string }
  | { kind: 'failed'; query: Query; error: string };

export type PastedStyle = 'cards' | 'lines';
export type PastedAnswer = { items: readonly PastedItem[]; style: PastedStyle; more: number; slowed: number };

/** Records shown of one identifier; the rest behind its list button. */
export const MAX_RECORDS_PER_IDENTIFIER = 3;
const OPEN_PER_ROW = 5;
const BRIEF = { ...upTo(80), maxPositions: 0, maxListItems: 1, brief: true };
const LINE_TEXT = upTo(60);

type Block = { html: string; open: InlineKeyboardButton[]; rows: InlineKeyboardButton[][] };

/** "000000000010012345" → "10012345": the code as people say it. */
const shortCode = (code: string) => code.replace(/^0+(?=\d)/, '');

const lookupButton = (text: string, query: Query): InlineKeyboardButton[] =>
  canInline(query) ? [{ text, callback_data: packCallback({ type: 'lookup', ref: { query } }) }] : [];

/** «Заказ № 0007300100 · 15.03.2026 · Производство»: a record in one line. */
const orderLine = (order: Order, t: Translate, fmt: Formatter): string =>
  [
    say(t, 'paste.orderLine', { sapId: clip(order.SAP_ID, LINE_TEXT) }),
    order.DATE_ORDER === null ? null : escapeHtml(fmt.date(order.DATE_ORDER)),
    escapeHtml(clip(order.STATUS_TEXT.trim() || order.STATUS, LINE_TEXT)) || null,
    order.POSITION_SUM === null ? null : escapeHtml([fmt.money(order.POSITION_SUM), orderCurrency(order.POSITION)].filter(Boolean).join(' ')),
  ]
    .filter((part) => part !== null)
    .join(' · ');

const specLine = (spec: Specification, t: Translate): string => {
  const contract = clip(spec.CONTRACT_NUMBER, LINE_TEXT);
  const number = clip(spec.SPECIFICATION_NUMBER, LINE_TEXT);
  const title = number === '' ? say(t, 'paste.specLineNoNumber', { contract }) : say(t, 'paste.specLine', { number, contract });
  const status = [clip(spec.STATUS, LINE_TEXT), clip(spec.STATUS_TYPE, LINE_TEXT)].filter(Boolean).join(', ');
  return status === '' ? title : `${title} · ${say(t, 'paste.statusPart', { status })}`;
};

/** The records one identifier found: numbered cards or lines (from `first`), their open buttons, the list button past MAX_RECORDS_PER_IDENTIFIER. */
const recordsBlock = (item: Extract<PastedItem, { kind: 'records' }>, style: PastedStyle, first: number, t: Translate, fmt: Formatter): Block => {
  const { results, ref } = item;
  const records = recordsOf(results);
  const lineOf = (index: number): string =>
    results.resource === 'order' ? orderLine(results.page.items[index]!, t, fmt) : specLine(results.page.items[index]!, t);
  const shown = withViews(records, (items, views) =>
    items.slice(0, MAX_RECORDS_PER_IDENTIFIER).map((record, index) => ({
      html: style === 'cards' ? views.card(record, t, fmt, BRIEF) : lineOf(index),
      id: recordId(views.sapId(record)),
      index,
    })),
  );
  const lines = shown.map((entry, k) => `<b>${first + k}.</b> ${entry.html}`);
  const open = shown.map((entry, k) => ({
    text: t('buttons.openRecord', { n: first + k }),
    callback_data: packCallback({ type: 'openRecord', ref, limit: results.paging.limit, offset: 0, index: entry.index, id: entry.id }),
  }));
  const total = Math.max(results.page.total, results.page.items.length);
  const rest = total - shown.length;
  if (rest <= 0) return { html: lines.join(style === 'cards' ? '\n\n' : '\n'), open, rows: [] };
  const label = results.query.value;
  const button = { text: t('paste.listButton', { label, count: fmt.pieces(total) }), callback_data: packCallback({ type: 'lookup', ref }) };
  lines.push(t('paste.moreRecords', { count: rest, button: escapeHtml(button.text) }));
  return { html: lines.join(style === 'cards' ? '\n\n' : '\n'), open, rows: [[button]] };
};

const materialBlock = (item: Extract<PastedItem, { kind: 'material' }>, t: Translate, fmt: Formatter): Block => {
  const code = shortCode(item.code);
  return {
    html: say(t, 'paste.material', { code, orders: fmt.pieces(item.orders), specs: fmt.pieces(item.specifications) }),
    open: [],
    rows: [
      [
        ...(item.orders > 0 ? lookupButton(t('paste.materialOrders', { count: fmt.pieces(item.orders) }), { resource: 'order', filter: 'POSITION[MATERIAL_SAP_ID]', value: item.code }) : []),
        ...(item.specifications > 0
          ? lookupButton(t('paste.materialSpecs', { count: fmt.pieces(item.specifications) }), { resource: 'specification', filter: 'POSITION[MATERIAL_SAP_ID]', value: item.code })
          : []),
      ],
    ].filter((row) => row.length > 0),
  };
};

const dateBlock = (date: string, t: Translate, fmt: Formatter): Block => {
  const shown = fmt.date(date);
  return {
    html: say(t, 'paste.date', { date: shown }),
    open: [],
    rows: [
      lookupButton(t('paste.dateOrders', { date: shown }), { resource: 'order', filter: 'DATE_ORDER', value: date }),
      lookupButton(t('paste.dateSpecs', { date: shown }), { resource: 'specification', filter: 'ORDER[DATE_ORDER]', value: date }),
    ],
  };
};

/** One item's block: records as cards or lines; a group's chatter (`answer.style` 'lines') leaves out what found nothing. */
const blockOf = (item: PastedItem, records: PastedStyle, chatter: boolean, first: number, t: Translate, fmt: Formatter): Block | undefined => {
  const line = (html: string): Block | undefined => (chatter ? undefined : { html, open: [], rows: [] });
  switch (item.kind) {
    case 'records':
      if (item.results.page.items.length > 0) return recordsBlock(item, records, first, t, fmt);
      return line(t('paste.nothing', { what: describeQuery(item.results.query, t, fmt) }));
    case 'material':
      return chatter && item.orders + item.specifications === 0 ? undefined : materialBlock(item, t, fmt);
    case 'date':
      return chatter ? undefined : dateBlock(item.date, t, fmt);
    case 'badDate':
      return line(t('usage.badDate', { value: escapeHtml(item.text) }));
    case 'failed':
      return line(t('paste.failed', { what: describeQuery(item.query, t, fmt), error: item.error }));
  }
};

const layout = (answer: PastedAnswer, records: PastedStyle, t: Translate, fmt: Formatter): { blocks: Block[]; footer: string[] } => {
  const chatter = answer.style === 'lines';
  const blocks: Block[] = [];
  let next = 1;
  for (const item of answer.items) {
    const block = blockOf(item, records, chatter, next, t, fmt);
    if (block === undefined) continue;
    next += block.open.length;
    blocks.push(block);
  }
  const footer = [
    answer.more > 0 ? t('paste.notLookedUp', { count: answer.more, max: MAX_IDENTIFIERS }) : null,
    answer.slowed > 0 && !chatter ? t('paste.slowedDown', { count: answer.slowed }) : null,
  ].filter((line) => line !== null);
  return { blocks, footer };
};

const viewOf = (header: string | null, blocks: readonly Block[], footer: readonly string[], style: PastedStyle): View => {
  const open = blocks.flatMap((block) => block.open);
  const rows = Array.from({ length: Math.ceil(open.length / OPEN_PER_ROW) }, (_, row) => open.slice(row * OPEN_PER_ROW, row * OPEN_PER_ROW + OPEN_PER_ROW));
  const separator = style === 'cards' ? '\n\n' : '\n';
  const text = [...(header === null ? [] : [header]), ...blocks.map((block) => block.html), ...footer].join(separator);
  return { text, keyboard: [...rows, ...blocks.flatMap((block) => block.rows)] };
};

/**
 * The answer to several pasted numbers, or to a group's chatter: undefined when it has nothing
 * to say (chatter in which nothing was found). Within Telegram's 4096 characters: cards that do not
 * fit become lines, and lines that still do not fit are left out from the end, said in a line.
 */
export const renderPasted = (answer: PastedAnswer, t: Translate, fmt: Formatter): View | undefined => {
  const header = answer.style === 'cards' ? t('paste.header') : null;
  for (const style of answer.style === 'cards' ? (['cards', 'lines'] as const) : (['lines'] as const)) {
    const { blocks, footer } = layout(answer, style, t, fmt);
    if (blocks.length === 0 && footer.length === 0) return undefined;
    let shown = blocks;
    for (;;) {
      const left = blocks.length - shown.length;
      const view = viewOf(header, shown, [...(left > 0 ? [t('paste.notShown', { count: left })] : []), ...footer], style);
      if (visibleLength(view.text) <= TELEGRAM_TEXT_LIMIT) return view;
      if (style === 'cards' || shown.length === 0) break;
      shown = shown.slice(0, -1);
    }
  }
  return undefined;
};

/** A single material code: its orders and specifications, as two buttons with their counts. */
export const renderMaterialAnswer = (item: Extract<PastedItem, { kind: 'material' }>, t: Translate, fmt: Formatter): View => {
  if (item.orders + item.specifications === 0) {
    return { text: renderNothingFound({ resource: 'order', filter: 'POSITION[MATERIAL_SAP_ID]', value: item.code }, t, fmt), keyboard: [] };
  }
  const block = materialBlock(item, t, fmt);
  return { text: block.html, keyboard: block.rows };
};

/** A single date: orders of that date, or specifications with production requests of that date? */
export const renderDateQuestion = (date: string, t: Translate, fmt: Formatter): View => {
  const block = dateBlock(date, t, fmt);
  return { text: block.html, keyboard: block.rows };
};
