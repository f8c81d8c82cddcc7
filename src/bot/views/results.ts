import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Query } from '../../query.ts';
import { cachedCard, cachedPageCards, type MeasuredCard } from './common/render-cache.ts';
import { DEGRADE_STEPS, joinLines } from './common/card-parts.ts';
import { describeQuery } from './common/describe-query.ts';
import { renderFetchedAt } from './common/fetched-at.ts';
import { TELEGRAM_TEXT_LIMIT, visibleLength } from './common/html.ts';
import type { ResourceRecords } from '../../portal/client.ts';
import { withViews } from './resources.ts';

export type ResultsText = ResourceRecords & {
  total: number;
  offset: number;
  limit: number;
  /** When the page was fetched: shown in the header as «обновлено 14:05». */
  fetchedAt?: Date;
  /** The moment the text is for (default: fetchedAt); the date is shown when fetchedAt is on another day. */
  now?: Date;
};

const BLANK_LINE = '\n\n';

const renderHeader = ({ query, items, total, offset, fetchedAt, now }: ResultsText, t: Translate, fmt: Formatter): string => {
  const to = offset + items.length;
  const range = {
    from: fmt.pieces(offset + 1),
    to: fmt.pieces(to),
    total: fmt.pieces(Math.max(total, to)),
  };
  return joinLines([
    t(query.resource === 'order' ? 'results.orders' : 'results.specifications', range),
    t('results.filter', { query: describeQuery(query, t, fmt) }),
    renderFetchedAt(t, fmt, fetchedAt, now),
  ]);
};

type Measured = MeasuredCard;

const BLANK_LINE_LENGTH = BLANK_LINE.length;

/**
 * The page's cards at degrade step `step`, numbered, measured one by one, as long as they could
 * still fit in `room` characters together (each after a blank line): rendering stops at the first
 * card past it, so a page of any length costs at most one message's worth of cards per step. Each
 * card is rendered once per record, language and step (render-cache.ts): a step tried again, or the
 * page shown again while the portal cache holds it, costs a lookup per card.
 */
const cardsWithin = (page: ResultsText, step: number, room: number, t: Translate, fmt: Formatter): { cards: Measured[]; fit: boolean } =>
  withViews(page, (items, views) => {
    const options = DEGRADE_STEPS[step];
    const cards: Measured[] = [];
    let used = 0;
    for (const [index, record] of items.entries()) {
      const card = cachedCard(record, t, fmt, step, () => views.card(record, t, fmt, options));
      // Numbered as the buttons that open them are; «12. » is what Telegram counts of the number.
      const number = String(page.offset + index + 1);
      const length = number.length + 2 + card.length;
      cards.push({ html: `<b>${number}.</b> ${card.html}`, length });
      used += BLANK_LINE_LENGTH + length;
      if (used > room) return { cards, fit: false };
    }
    return { cards, fit: true };
  });

/**
 * The page's cards fitted to `room` characters, each after a blank line but the first: with a
 * card's details left out step by step until they fit, else whole cards left out from the end
 * and a note of how many.
 */
const fitCards = (page: ResultsText, room: number, t: Translate, fmt: Formatter): string => {
  const join = (cards: readonly Measured[], ...rest: string[]) => [...cards.map((card) => card.html), ...rest].join(BLANK_LINE);
  const notShown = (count: number) =>
    t(page.query.resource === 'order' ? 'results.ordersNotShown' : 'results.specificationsNotShown', { count });
  let cards: Measured[] = [];
  for (let step = 0; step < DEGRADE_STEPS.length; step += 1) {
    const within = cardsWithin(page, step, room, t, fmt);
    if (within.fit) return join(within.cards);
    cards = within.cards;
  }
  // Last resort: whole cards are left out from the end, and the message says how many. Only the
  // cards rendered can be among them: with the last one rendered, they already overflow.
  // lengths[n]: the first n cards, each after its blank line.
  const lengths = [0];
  for (const card of cards) lengths.push(lengths.at(-1)! + BLANK_LINE_LENGTH + card.length);
  for (let shown = cards.length - 1; shown > 0; shown -= 1) {
    const note = notShown(page.items.length - shown);
    if (lengths[shown]! + BLANK_LINE_LENGTH + visibleLength(note) <= room) return join(cards.slice(0, shown), note);
  }
  return notShown(page.items.length);
};

/**
 * One message for a page of records, within Telegram's 4096 characters for any records. The cards
 * depend on the header only through the room it leaves: fitted once per page, language, offset
 * and room while the portal cache holds the page (render-cache.ts), the header written each time.
 */
export const renderResultsText = (page: ResultsText, t: Translate, fmt: Formatter): string => {
  if (page.items.length === 0) return renderNothingFound(page.query, t, fmt);
  const header = renderHeader(page, t, fmt);
  // HTML lengths add up: every card and the header close their own tags and entities.
  const room = TELEGRAM_TEXT_LIMIT - visibleLength(header);
  return `${header}${BLANK_LINE}${cachedPageCards(page.items, t, fmt, page.offset, room, () => fitCards(page, room, t, fmt))}`;
};

/** "No orders found" with the filter that was used. */
export const renderNothingFound = (query: Query, t: Translate, fmt?: Formatter): string =>
  joinLines([
    t(query.resource === 'order' ? 'results.noOrders' : 'results.noSpecifications'),
    t('results.filter', { query: describeQuery(query, t, fmt) }),
    t('results.nothingHint'),
  ]);
