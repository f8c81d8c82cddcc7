import type { Translate } from '../../../i18n.ts';
import { joinLines } from './card-parts.ts';
import type { DetailsContent, DetailsItem, DetailsSection } from './details-view.ts';
import { visibleLength } from './html.ts';

// How a record's lists are cut into parts: greedily, entry by entry, so the same record always
// gives the same parts.

/** Visible characters per part: well under Telegram's 4096, so the worst entry still fits. */
export const DETAILS_TEXT_BUDGET = 3600;
/** Positions and production requests per part: each brings cross-link buttons. */
export const MAX_LINKS_PER_PART = 10;
/** The part travels in callback data as two digits. */
export const MAX_DETAILS_PARTS = 99;

/** Entries [from, to) of one section. */
export type Slice = { section: number; from: number; to: number };

export type Frame = { t: Translate; fetched: string | null };

const sectionHeader = (section: DetailsSection, from: number, to: number, t: Translate): string => {
  const count = section.items.length;
  return from === 0 && to === count
    ? t('full.section', { label: section.label, count })
    : t('full.sectionRange', { label: section.label, from: from + 1, to, count });
};

export const renderPart = (
  content: DetailsContent,
  slices: readonly Slice[],
  label: string | null,
  { t, fetched }: Frame,
  tail: string | null = null,
): string => {
  const title = label === null ? content.title : `${content.title} · ${label}`;
  const blocks = [joinLines([title, ...content.head, fetched])];
  for (const { section: index, from, to } of slices) {
    const section = content.sections[index];
    if (section === undefined) continue;
    blocks.push([sectionHeader(section, from, to, t), ...section.items.slice(from, to).map((item) => item.html)].join('\n'));
  }
  if (tail !== null) blocks.push(tail);
  return blocks.join('\n\n');
};

const withEntry = (slices: readonly Slice[], section: number, index: number): Slice[] => {
  const last = slices.at(-1);
  return last?.section === section
    ? [...slices.slice(0, -1), { ...last, to: index + 1 }]
    : [...slices, { section, from: index, to: index + 1 }];
};

export const isLink = (item: DetailsItem): boolean => item.position !== undefined || Boolean(item.relatedOrder);

/**
 * The visible length of a part, summed from its pieces rather than rendered: tags and entities
 * never span the line breaks that join them, so the lengths add up.
 */
const measurer = (content: DetailsContent, frame: Frame, widestLabel: string) => {
  const head = visibleLength(renderPart(content, [], widestLabel, frame));
  // running[s][i]: the length of the entries before i in section s, each with its line break.
  const running = content.sections.map((section) => {
    const sums = [0];
    for (const item of section.items) sums.push((sums.at(-1) ?? 0) + 1 + visibleLength(item.html));
    return sums;
  });
  return (slices: readonly Slice[]): number =>
    slices.reduce((length, { section: index, from, to }) => {
      const section = content.sections[index];
      const sums = running[index];
      if (section === undefined || sums === undefined) return length;
      return length + 2 + visibleLength(sectionHeader(section, from, to, frame.t)) + (sums[to] ?? 0) - (sums[from] ?? 0);
    }, head);
};

/** Greedy: an entry goes on the current part while the part fits and has links to spare. */
export const paginate = (content: DetailsContent, frame: Frame, widestLabel: string): Slice[][] => {
  const measure = measurer(content, frame, widestLabel);
  const parts: Slice[][] = [];
  let current: Slice[] = [];
  let links = 0;
  content.sections.forEach((section, s) =>
    section.items.forEach((item, i) => {
      const link = isLink(item) ? 1 : 0;
      const extended = withEntry(current, s, i);
      if (current.length > 0 && (links + link > MAX_LINKS_PER_PART || measure(extended) > DETAILS_TEXT_BUDGET)) {
        parts.push(current);
        current = withEntry([], s, i);
        links = link;
      } else {
        current = extended;
        links += link;
      }
    }),
  );
  parts.push(current);
  return parts;
};

export const entriesOf = (content: DetailsContent, slices: readonly Slice[]): DetailsItem[] =>
  slices.flatMap(({ section, from, to }) => content.sections[section]?.items.slice(from, to) ?? []);

const countEntries = (slices: readonly Slice[]): number => slices.reduce((sum, { from, to }) => sum + to - from, 0);

/** Hundreds of entries: the parts beyond the last are left out, and the last part says how many. */
export const truncate = (content: DetailsContent, parts: Slice[][], frame: Frame, widestLabel: string) => {
  const kept = parts.slice(0, MAX_DETAILS_PARTS);
  const total = content.sections.reduce((sum, section) => sum + section.items.length, 0);
  let last = kept.pop() ?? [];
  const tailFor = (slices: readonly Slice[]) =>
    frame.t('full.notShown', { count: total - countEntries(kept.flat()) - countEntries(slices) });
  while (countEntries(last) > 1 && visibleLength(renderPart(content, last, widestLabel, frame, tailFor(last))) > DETAILS_TEXT_BUDGET) {
    const slice = last.at(-1);
    if (slice === undefined) break;
    last = slice.to - slice.from > 1 ? [...last.slice(0, -1), { ...slice, to: slice.to - 1 }] : last.slice(0, -1);
  }
  return { parts: [...kept, last], tail: tailFor(last) };
};
