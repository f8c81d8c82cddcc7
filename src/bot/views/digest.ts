import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { View } from '../../telegram/view.ts';
import type { DigestContent, PlannedPosition } from '../../watch/digest-content.ts';
import type { RecordSnapshot } from '../../watch/changes.ts';
import type { Resource } from '../../query.ts';
import { RECORD_TITLES, renderChangeLine } from './change-views.ts';
import { itemLabel, showText } from './change-lines.ts';
import { TELEGRAM_TEXT_LIMIT, visibleLength } from './common/html.ts';
import { describeTarget } from './watch-notices.ts';

// A chat's daily digest: what changed since the last one (one line per record, by watch), the
// status of every watched record, and the positions planned for production this week, by day.
// Split into messages within Telegram's 4096 characters, at most MAX_DIGEST_MESSAGES of them.

/** A digest longer than this many messages ends with a line saying how much was left out. */
export const MAX_DIGEST_MESSAGES = 10;
const BLANK = '\n\n';

/** «Заказ № 0007300100 — Отгружен»; a specification's status code with its type. */
const statusLine = (resource: Resource, record: RecordSnapshot, t: Translate, fmt: Formatter): string => {
  const status = record.fields.status ?? null;
  const type = record.fields.statusType ?? null;
  const shown = resource === 'specification' && typeof type === 'string' && type !== '' ? t('digest.statusTyped', { status: showText(status, t, fmt), type: showText(type, t, fmt) }) : showText(status, t, fmt);
  return t('digest.status', { title: RECORD_TITLES[resource](record, t, fmt), status: shown });
};

const plannedLine = (position: PlannedPosition, t: Translate, fmt: Formatter): string =>
  t('digest.plannedItem', { title: RECORD_TITLES.specification(position.record, t, fmt), item: itemLabel(position.item, position.name, t, fmt) });

/** The digest's blocks in order, each a few lines that stay together in one message (HTML). */
const blocksOf = (content: DigestContent, t: Translate, fmt: Formatter, now: Date): string[] => {
  const blocks: string[] = [];
  if (content.missedAt !== undefined) blocks.push(t('digest.missed', { day: fmt.date(fmt.day(new Date(content.missedAt))) }));
  const changed = content.watches.filter((watch) => watch.changes.length > 0);
  if (changed.length > 0) {
    blocks.push(t('digest.changesSince', { since: fmt.dateTime(new Date(content.since), now) }));
    for (const watch of changed) {
      blocks.push([t('digest.watch', { what: describeTarget(watch.watch.target, t, fmt) }), ...watch.changes.map((change) => t('digest.bullet', { line: renderChangeLine(watch.resource, change, t, fmt) }))].join('\n'));
    }
  } else blocks.push(t('digest.noChanges', { since: fmt.dateTime(new Date(content.since), now) }));
  const withRecords = content.watches.filter((watch) => watch.records.length > 0);
  if (withRecords.length > 0) {
    blocks.push(t('digest.statusNow'));
    for (const watch of withRecords) {
      blocks.push([t('digest.watch', { what: describeTarget(watch.watch.target, t, fmt) }), ...watch.records.map((record) => t('digest.bullet', { line: statusLine(watch.resource, record, t, fmt) }))].join('\n'));
    }
  }
  if (content.planned.length > 0) {
    blocks.push(t('digest.planned'));
    for (const day of content.planned) blocks.push([t('digest.day', { day: fmt.date(day.day) }), ...day.positions.map((position) => t('digest.bullet', { line: plannedLine(position, t, fmt) }))].join('\n'));
  }
  if (content.snoozed > 0) blocks.push(t('digest.snoozed', { count: content.snoozed }));
  return blocks;
};

/** A block too long for one message on its own, cut at its lines. */
const linesOf = (block: string, room: number): string[] => (visibleLength(block) <= room ? [block] : block.split('\n'));

/**
 * The digest's messages: none for a chat that watches nothing awake, or (quiet) on a day with
 * nothing changed and nothing planned, when a non-quiet digest is one short line; else the
 * title and the blocks, split between messages at block (or, for a long one, line) boundaries,
 * each message after the first titled with its number.
 */
export const renderDigest = (content: DigestContent, t: Translate, fmt: Formatter, now: Date): View[] => {
  if (content.watches.length === 0) return [];
  const today = fmt.date(fmt.day(now));
  const missed = content.missedAt === undefined ? [] : [t('digest.missed', { day: fmt.date(fmt.day(new Date(content.missedAt))) })];
  if (content.changed === 0 && content.planned.length === 0) {
    // A quiet chat still hears that a digest was missed: its changes would otherwise go untold.
    if (content.quiet && missed.length === 0) return [];
    return [{ text: [t('digest.nothing', { day: today, count: content.records }), ...missed].join('\n'), keyboard: [] }];
  }
  // Room for the longest title a part may have, and for the line saying what was left out.
  const title = (part: number, parts: number) => t(parts > 1 ? 'digest.titlePart' : 'digest.title', { day: today, part, parts });
  const room = TELEGRAM_TEXT_LIMIT - visibleLength(title(MAX_DIGEST_MESSAGES, MAX_DIGEST_MESSAGES)) - BLANK.length * 2 - visibleLength(t('digest.cut', { count: 99_999 }));
  const parts: string[][] = [[]];
  let used = 0;
  const pieces = blocksOf(content, t, fmt, now).flatMap((block) => linesOf(block, room));
  let left = 0;
  for (const [index, piece] of pieces.entries()) {
    const length = visibleLength(piece) + BLANK.length;
    if (used + length > room && used > 0) {
      if (parts.length === MAX_DIGEST_MESSAGES) {
        left = pieces.length - index;
        break;
      }
      parts.push([]);
      used = 0;
    }
    parts.at(-1)!.push(piece);
    used += length;
  }
  if (left > 0) parts.at(-1)!.push(t('digest.cut', { count: left }));
  return parts.map((blocks, index) => ({ text: [title(index + 1, parts.length), ...blocks].join(BLANK), keyboard: [] }));
};
