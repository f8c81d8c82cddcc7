import { createHash } from 'node:crypto';
import { EMPTY_VALUE } from '../../format.ts';
import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Query } from '../../portal/query.ts';
import type { Order, Specification } from '../../portal/schemas.ts';
import { DEFAULT_CARD_OPTIONS, clip, say } from './common/card-parts.ts';
import type { CardOptions } from './common/card-parts.ts';
import { describeQuery } from './common/describe-query.ts';
import { TELEGRAM_TEXT_LIMIT, escapeHtml, shorten, toPlainText, visibleLength } from './common/html.ts';
import { orderSumLine, renderOrderCard } from './order/card.ts';
import { DEGRADE_STEPS } from './results.ts';
import { renderSpecCard, specFields } from './specification/card.ts';

// Inline mode: a title and a one-line description in Telegram's list (plain text), and the
// message sent when one is chosen (HTML: the compact card).

export type InlineItem = { id: string; title: string; description: string; text: string };

export type InlineNoticeKind = 'usage' | 'notAllowed' | 'nothingFound' | 'failed';

/** notAllowed names the user's id; nothingFound repeats the query. */
export type InlineNoticeParams = { id?: number | string; query?: Query };

/** Portal text in a title or a description: the list shows one line. */
const SUMMARY_OPTIONS: CardOptions = { ...DEFAULT_CARD_OPTIONS, maxTextLength: 64 };
const SEPARATOR = ' · ';
/** Telegram shows one line of each; the rest would only weigh on the answer. */
const MAX_TITLE_LENGTH = 128;
const MAX_DESCRIPTION_LENGTH = 256;
/** Telegram's limit for a result id is 64 bytes. */
const READABLE_ID = /^[\x21-\x7e]{1,60}$/;

/** "o:0007300100"; a key that is not short printable ASCII goes by its hash. */
const resultId = (prefix: 'o' | 's', key: string): string =>
  READABLE_ID.test(key) ? `${prefix}:${key}` : `${prefix}#${createHash('sha256').update(key).digest('base64url').slice(0, 43)}`;

/** HTML lines as one line of plain text, at most `max` characters. */
const plainLine = (lines: ReadonlyArray<string | null>, max: number): string =>
  shorten(
    lines
      .filter((line): line is string => line !== null && line !== '')
      .map(toPlainText)
      .join(SEPARATOR),
    max,
  );

/** The most detailed compact card that fits one message. */
const fittingCard = (render: (options: CardOptions) => string): string => {
  let card = '';
  for (const options of DEGRADE_STEPS) {
    card = render(options);
    if (visibleLength(card) <= TELEGRAM_TEXT_LIMIT) return card;
  }
  return card;
};

const positionCount = (count: number, t: Translate): string | null => (count === 0 ? null : t('card.positionCount', { count }));

const orderResult = (order: Order, t: Translate, fmt: Formatter): InlineItem => {
  const options = SUMMARY_OPTIONS;
  const status = clip(order.STATUS_TEXT.trim() || order.STATUS, options);
  const title = say(t, 'order.title', { sapId: clip(order.SAP_ID, options) || EMPTY_VALUE });
  const weight =
    order.POSITION_WEIGHT_TONN === null ? null : say(t, 'full.weight', { value: fmt.quantity(order.POSITION_WEIGHT_TONN, 'TNE') });
  return {
    id: resultId('o', order.SAP_ID.trim() || JSON.stringify(order)),
    title: plainLine([title, escapeHtml(status)], MAX_TITLE_LENGTH),
    description: plainLine(
      [
        order.DATE_ORDER === null ? null : escapeHtml(clip(fmt.date(order.DATE_ORDER), options)),
        orderSumLine(order, t, fmt, options) ?? weight,
        positionCount(order.POSITION.length, t),
      ],
      MAX_DESCRIPTION_LENGTH,
    ),
    text: fittingCard((cardOptions) => renderOrderCard(order, t, fmt, cardOptions)),
  };
};

const specResult = (spec: Specification, t: Translate, fmt: Formatter): InlineItem => {
  const fields = specFields(spec, t, fmt, SUMMARY_OPTIONS);
  return {
    id: resultId('s', spec.SAP_ID.trim() || JSON.stringify(spec)),
    title: plainLine([fields.title, fields.status], MAX_TITLE_LENGTH),
    description: plainLine([fields.contract, fields.validity, positionCount(spec.POSITION.length, t)], MAX_DESCRIPTION_LENGTH),
    text: fittingCard((cardOptions) => renderSpecCard(spec, t, fmt, cardOptions)),
  };
};

/**
 * One record as an inline result, e.g. «Заказ № 0007300100 · Производство» over
 * «15.03.2026 · Сумма: 1 234 567,89 RUB · 2 позиции». The id is stable: the same record gives the same id.
 */
export const renderInlineResult = (query: Query, record: Order | Specification, t: Translate, fmt: Formatter): InlineItem =>
  // The records come paired with their query (fetchResults), so the resource tells their type.
  query.resource === 'order' ? orderResult(record as Order, t, fmt) : specResult(record as Specification, t, fmt);

const NOTICE_KEYS: Record<InlineNoticeKind, { title: string; description: string }> = {
  usage: { title: 'inline.usageTitle', description: 'inline.usageDescription' },
  notAllowed: { title: 'inline.notAllowedTitle', description: 'inline.notAllowedDescription' },
  nothingFound: { title: 'inline.nothingTitle', description: 'inline.nothingDescription' },
  failed: { title: 'inline.failedTitle', description: 'inline.failedDescription' },
};

/** The only result of an answer that has no records: how to search, no access, nothing found, the portal failed. */
export const renderInlineNotice = (
  kind: InlineNoticeKind,
  t: Translate,
  params: InlineNoticeParams = {},
  fmt?: Formatter,
): InlineItem => {
  const keys = NOTICE_KEYS[kind];
  const values = {
    id: params.id ?? '',
    filter: params.query === undefined ? '' : toPlainText(describeQuery(params.query, t, fmt)),
  };
  const title = t(keys.title, values);
  return {
    id: `notice:${kind}`,
    title,
    description: t(keys.description, values),
    text: `<b>${escapeHtml(title)}</b>\n${say(t, keys.description, values)}`,
  };
};
