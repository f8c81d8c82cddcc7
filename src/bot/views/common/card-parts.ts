import type { Params, Translate } from '../../../i18n.ts';
import { escapeParams, shorten } from './html.ts';

/** How much of a record a card shows; the results view lowers these until a page fits. */
export type CardOptions = {
  /** Positions listed; 0 leaves only their count. */
  maxPositions: number;
  /** Entries shown in a one-line list (consignees, documents, production requests); at least 1. */
  maxListItems: number;
  /** Longest portal text shown whole, in characters; longer text ends in "…". */
  maxTextLength: number;
  /** Only the main lines: number, date, status, sum or contract and validity, position count. */
  brief: boolean;
};

export const DEFAULT_CARD_OPTIONS: CardOptions = { maxPositions: 3, maxListItems: 5, maxTextLength: Infinity, brief: false };

/** The default card with portal text shortened to at most `maxTextLength` characters. */
export const upTo = (maxTextLength: number): CardOptions => ({ ...DEFAULT_CARD_OPTIONS, maxTextLength });

/**
 * How a compact card is shown, from the most detailed down. The first step whose text fits one
 * message is used: fewer positions, then only their count, then long portal text shortened,
 * then brief cards (main lines only).
 */
export const DEGRADE_STEPS: readonly CardOptions[] = [
  { maxPositions: 3, maxListItems: 5, maxTextLength: Infinity, brief: false },
  { maxPositions: 2, maxListItems: 3, maxTextLength: Infinity, brief: false },
  { maxPositions: 1, maxListItems: 3, maxTextLength: Infinity, brief: false },
  { maxPositions: 0, maxListItems: 2, maxTextLength: Infinity, brief: false },
  { maxPositions: 0, maxListItems: 2, maxTextLength: 80, brief: false },
  { maxPositions: 0, maxListItems: 1, maxTextLength: 40, brief: false },
  { maxPositions: 0, maxListItems: 1, maxTextLength: 40, brief: true },
  { maxPositions: 0, maxListItems: 1, maxTextLength: 24, brief: true },
];

/** A translated line whose string params are portal or user text: they are escaped here. */
export const say = (t: Translate, key: string, params: Params = {}): string => t(key, escapeParams(params));

/** Portal text trimmed and shortened to the card's limit (still plain text: escape on use). */
export const clip = (text: string, options: CardOptions): string => shorten(text.trim(), options.maxTextLength);

/** Distinct non-empty values, first spelling kept; spacing and letter case do not make a new one. */
export const distinct = (values: readonly string[]): string[] => {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = value.trim().replace(/\s+/g, ' ').toLowerCase();
    if (key === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/**
 * "Label: a; b and 3 more", or null when there are no items. Only the shown items are
 * rendered (to HTML); `singular` and `plural` are keys taking `{value}`.
 */
export const listLine = <T>(
  t: Translate,
  labels: { singular: string; plural: string },
  items: readonly T[],
  render: (item: T) => string,
  options: CardOptions,
  separator = '; ',
): string | null => {
  if (items.length === 0) return null;
  const shown = items.slice(0, Math.max(1, options.maxListItems));
  const rest = items.length - shown.length;
  const value = shown.map(render).join(separator) + (rest > 0 ? ` ${t('card.moreItems', { count: rest })}` : '');
  return t(items.length === 1 ? labels.singular : labels.plural, { value });
};

/**
 * The positions block: a header with the count, the first `maxPositions` items and
 * "… and N more"; with maxPositions 0 only the count.
 */
export const positionLines = <P>(
  t: Translate,
  headerKey: string,
  positions: readonly P[],
  renderItem: (position: P) => string,
  options: CardOptions,
): string[] => {
  if (positions.length === 0) return [];
  if (options.maxPositions <= 0) return [t('card.positionCount', { count: positions.length })];
  const shown = positions.slice(0, options.maxPositions);
  const rest = positions.length - shown.length;
  return [
    t(headerKey, { count: positions.length }),
    ...shown.map(renderItem),
    ...(rest > 0 ? [t('card.morePositions', { count: rest })] : []),
  ];
};

/** Joins the lines that have a value. */
export const joinLines = (lines: ReadonlyArray<string | null>): string =>
  lines.filter((line): line is string => line !== null && line !== '').join('\n');
