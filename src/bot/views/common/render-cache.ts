import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import { visibleLength } from './html.ts';
import { renderFetchedAt } from './fetched-at.ts';
import { MAX_RICH_PARTS, renderRichRecord, withFooter, type RichContent, type RichRecord } from './rich-record.ts';

/** A card's HTML and the length Telegram counts for it. */
export type MeasuredCard = { html: string; length: number };

type Rendered = { t: Translate; fmt: Formatter; cards: Array<MeasuredCard | undefined>; rich: Array<RichRecord | undefined>; pages?: Map<string, string> };

// A record's card and its rich view are pure functions of the record, the language (translator and
// formatter) and the card's degrade step or the rich view's part, and a page's cards together of
// its records, the language, its offset and the room its header leaves; records and pages are the
// portal cache's shared, never-mutated objects, the same object on every hit. So each is rendered
// once per record or page, language and the rest, and kept exactly as long as its record or page:
// while the portal cache holds it (a WeakMap holds nothing alive), so what is kept is bounded by
// that cache's size and time. A page re-shown (◀ ▶, another user's same lookup) renders nothing.
const rendered = new WeakMap<object, Rendered[]>();

const renderedIn = (record: object, t: Translate, fmt: Formatter): Rendered => {
  let languages = rendered.get(record);
  if (languages === undefined) {
    languages = [];
    rendered.set(record, languages);
  }
  // One entry per language the record was shown in: two at most in practice, found by a scan.
  let entry = languages.find((candidate) => candidate.t === t && candidate.fmt === fmt);
  if (entry === undefined) {
    entry = { t, fmt, cards: [], rich: [] };
    languages.push(entry);
  }
  return entry;
};

/** The card of `record` at degrade step `step`, rendered by `render` only the first time. */
export const cachedCard = (record: object, t: Translate, fmt: Formatter, step: number, render: () => string): MeasuredCard => {
  const { cards } = renderedIn(record, t, fmt);
  let card = cards[step];
  if (card === undefined) {
    const html = render();
    card = { html, length: visibleLength(html) };
    cards[step] = card;
  }
  return card;
};

/** Part `part` of `record`'s rich view, without its «обновлено» footer, rendered by `render` only the first time. */
export const cachedRich = (record: object, t: Translate, fmt: Formatter, part: number, render: () => RichRecord): RichRecord => {
  const { rich } = renderedIn(record, t, fmt);
  // A forged part number names no more than the parts there can be.
  const key = Math.min(Math.max(0, Math.trunc(part) || 0), MAX_RICH_PARTS);
  return (rich[key] ??= render());
};

/**
 * Part `part` of `record`'s rich view: its `content` rendered once per language and part
 * (cachedRich), its «обновлено» footer written each time.
 */
export const cachedRichView = (record: object, content: () => RichContent, part: number, t: Translate, fmt: Formatter, fetchedAt?: Date, now?: Date): RichRecord =>
  withFooter(
    cachedRich(record, t, fmt, part, () => renderRichRecord(content(), part, t)),
    renderFetchedAt(t, fmt, fetchedAt, now),
  );

/** The cards of a page of `records` (its items array) at `offset`, fitted to `room` characters, rendered by `render` only the first time. */
export const cachedPageCards = (records: object, t: Translate, fmt: Formatter, offset: number, room: number, render: () => string): string => {
  const entry = renderedIn(records, t, fmt);
  const pages = (entry.pages ??= new Map());
  const key = `${offset}:${room}`;
  let cards = pages.get(key);
  if (cards === undefined) {
    cards = render();
    pages.set(key, cards);
  }
  return cards;
};
