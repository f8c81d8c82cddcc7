import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import { renderFetchedAt } from './fetched-at.ts';
import { MAX_DETAILS_PARTS, MAX_LINKS_PER_PART, entriesOf, isLink, paginate, renderPart, truncate } from './details-paging.ts';
import type { Frame, Slice } from './details-paging.ts';
import { visibleLength } from './html.ts';

// A record shown in full: its title and key fields on every part, then its lists flowing on
// from part to part (details-paging.ts cuts them).

export type DetailsPosition = { materialSapId: string; materialName: string };

export type DetailsView = {
  text: string;
  /** The part shown, 0-based, clamped to [0, parts - 1]. */
  part: number;
  parts: number;
  /** The positions shown on this part, in display order: for cross-link buttons. */
  positions: DetailsPosition[];
  /** SAP numbers of the related production requests shown on this part (specifications only). */
  relatedOrders: string[];
};

/** One entry of a list: its HTML and what it links to. */
export type DetailsItem = { html: string; position?: DetailsPosition; relatedOrder?: string };

/** A list under a bold label and its count; an empty one is left out. */
export type DetailsSection = { label: string; items: DetailsItem[] };

/** The title line and the key fields (null: no value), as HTML. */
export type DetailsHead = { title: string; head: ReadonlyArray<string | null> };

/** A record ready to be cut into parts. */
export type DetailsContent = DetailsHead & { sections: DetailsSection[] };

/** A record's content with its portal text shortened to at most `max` characters. */
export type DetailsSource = { head: (max: number) => DetailsHead; sections: (max: number) => DetailsSection[] };

/** Tried in order: the first that keeps the title and key fields within HEAD_BUDGET. */
export const HEAD_TEXT_LIMITS = [300, 100, 40] as const;
/** Tried in order: the first whose lists fit in MAX_DETAILS_PARTS parts. Real records stay on the first. */
export const ITEM_TEXT_LIMITS = [400, 150, 60] as const;
/** Visible characters of the title and key fields, so that the worst list entry still fits beside them. */
const HEAD_BUDGET = 1200;

const linkCount = (sections: readonly DetailsSection[]): number =>
  sections.reduce((count, section) => count + section.items.filter(isLink).length, 0);

const layout = (source: DetailsSource, frame: Frame, widestLabel: string) => {
  const fits = (head: DetailsHead) => visibleLength(renderPart({ ...head, sections: [] }, [], widestLabel, frame)) <= HEAD_BUDGET;
  const head = HEAD_TEXT_LIMITS.map((max) => source.head(max)).find(fits) ?? source.head(HEAD_TEXT_LIMITS[2]);

  const first = source.sections(ITEM_TEXT_LIMITS[0]);
  // More positions and requests than the parts can link to whatever the length: straight to the shortest.
  const crowded = linkCount(first) > MAX_LINKS_PER_PART * MAX_DETAILS_PARTS;
  const limits = crowded ? ITEM_TEXT_LIMITS.slice(-1) : ITEM_TEXT_LIMITS;
  let chosen: { content: DetailsContent; parts: Slice[][] } = { content: { ...head, sections: [] }, parts: [[]] };
  for (const [level, max] of limits.entries()) {
    const content = { ...head, sections: level === 0 && !crowded ? first : source.sections(max) };
    chosen = { content, parts: paginate(content, frame, widestLabel) };
    if (chosen.parts.length <= MAX_DETAILS_PARTS) return { ...chosen, tail: null };
  }
  return { content: chosen.content, ...truncate(chosen.content, chosen.parts, frame, widestLabel) };
};

/** One part of a record in full; `fetched` is the «обновлено 14:05» line or null. */
export const renderDetails = (source: DetailsSource, part: number, t: Translate, fetched: string | null): DetailsView => {
  const frame: Frame = { t, fetched };
  const widestLabel = t('full.part', { part: MAX_DETAILS_PARTS, parts: MAX_DETAILS_PARTS });
  const { content, parts, tail } = layout(source, frame, widestLabel);
  const index = Math.min(Math.max(0, Math.trunc(part) || 0), parts.length - 1);
  const slices = parts[index] ?? [];
  const label = parts.length > 1 ? t('full.part', { part: index + 1, parts: parts.length }) : null;
  const entries = entriesOf(content, slices);
  return {
    text: renderPart(content, slices, label, frame, index === parts.length - 1 ? tail : null),
    part: index,
    parts: parts.length,
    positions: entries.flatMap((item) => (item.position === undefined ? [] : [item.position])),
    relatedOrders: [...new Set(entries.flatMap((item) => (item.relatedOrder ? [item.relatedOrder] : [])))],
  };
};

/** One resource's "record in full" from how its content is built: the wrapper every resource shares. */
export const detailsRenderer =
  <R>(sourceOf: (record: R, t: Translate, fmt: Formatter) => DetailsSource) =>
  (record: R, part: number, t: Translate, fmt: Formatter, fetchedAt?: Date, now?: Date): DetailsView =>
    renderDetails(sourceOf(record, t, fmt), part, t, renderFetchedAt(t, fmt, fetchedAt, now));
