import type { InlineKeyboardButton } from '../../telegram/telegraf/core.ts';
import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import { isQueryValue, type Query } from '../../query.ts';
import type { Watch, WatchTarget } from '../../store/watch-store.ts';
import type { ChangeSet, RecordChange } from '../../watch/changes.ts';
import { canInline, packCallback } from '../callback-data/codec.ts';
import { CHANGE_VIEWS, renderChangeLine } from './change-views.ts';
import { optionSwitches, snoozeButtons } from '../keyboards/watch-options.ts';
import { joinLines } from './common/card-parts.ts';
import { describeQuery } from './common/describe-query.ts';
import { renderFetchedAt } from './common/fetched-at.ts';
import { TELEGRAM_TEXT_LIMIT, visibleLength } from './common/html.ts';
import type { View } from '../../telegram/view.ts';

// One message per watched query per poll: what the query is, then each changed record's lines,
// within Telegram's 4096 characters however many records changed.

const BLANK_LINE = '\n\n';
const MAX_OPEN_BUTTONS = 5;
const OPEN_BUTTONS_PER_ROW = 2;
/** Specification numbers longer than this are no button label anyone reads. */
const MAX_BUTTON_VALUE = 40;

type Block = { change: RecordChange; html: string };

/** The record's lines cut to `room` characters, the rest counted in «… и ещё N изменений». */
const cutLines = (lines: readonly string[], room: number, t: Translate): string => {
  for (let kept = lines.length - 1; kept > 0; kept -= 1) {
    const html = joinLines([...lines.slice(0, kept), t('change.moreChanges', { count: lines.length - kept })]);
    if (visibleLength(html) <= room) return html;
  }
  return lines[0] ?? '';
};

/**
 * The records whose lines fit in `room` after a blank line each, in order; the first one that does
 * not fit ends the message, with room kept for the «… и ещё N» line. A first record too long on
 * its own is cut, so a message always shows something.
 */
const fittingBlocks = (changeSet: ChangeSet, room: number, t: Translate, fmt: Formatter): Block[] => {
  // Folded changes (a snooze's end) read one line per record.
  const view = changeSet.since === undefined ? CHANGE_VIEWS[changeSet.resource] : (change: RecordChange) => [renderChangeLine(changeSet.resource, change, t, fmt)];
  const reserve = BLANK_LINE.length + visibleLength(t('notification.moreRecords', { count: changeSet.changes.length }));
  const blocks: Block[] = [];
  let used = 0;
  for (const [index, change] of changeSet.changes.entries()) {
    const lines = view(change, t, fmt);
    const html = lines.join('\n');
    const length = BLANK_LINE.length + visibleLength(html);
    const last = index === changeSet.changes.length - 1;
    if (used + length <= room - (last ? 0 : reserve)) {
      blocks.push({ change, html });
      used += length;
      continue;
    }
    if (blocks.length === 0) blocks.push({ change, html: cutLines(lines, room - (last ? 0 : reserve) - BLANK_LINE.length, t) });
    break;
  }
  return blocks;
};

/** The query that opens a changed record by itself, when it fits in a button. */
const recordQuery = (resource: ChangeSet['resource'], change: RecordChange): Query | undefined => {
  const number = change.title.number;
  const query: Query =
    resource === 'order'
      ? { resource: 'order', filter: 'SAP_ID', value: change.sapId }
      : { resource: 'specification', filter: 'SPECIFICATION_NUMBER', value: typeof number === 'string' ? number : '' };
  // The codec takes back only a value a typed command would give: anything else makes a dead button.
  return isQueryValue(query.filter, query.value) && query.value.length <= MAX_BUTTON_VALUE && canInline(query) ? query : undefined;
};

/** The watch's options as a notification shows them: whether it is status-only, digest-only (not snoozed: it is awake to be told). */
export type NotifiedWatch = Pick<Watch, 'statusOnly' | 'digestOnly'>;

const keyboardOf = (changeSet: ChangeSet, shown: readonly Block[], target: WatchTarget, watchId: number, t: Translate, watch: NotifiedWatch): InlineKeyboardButton[][] => {
  const open = shown.slice(0, MAX_OPEN_BUTTONS).flatMap(({ change }): InlineKeyboardButton[] => {
    const query = recordQuery(changeSet.resource, change);
    if (query === undefined) return [];
    const text = query.resource === 'order' ? t('notification.openOrder', { sapId: query.value }) : t('notification.openSpec', { number: query.value });
    return [{ text, callback_data: packCallback({ type: 'lookup', ref: { query } }) }];
  });
  const rows: InlineKeyboardButton[][] = [];
  for (let start = 0; start < open.length; start += OPEN_BUTTONS_PER_ROW) rows.push(open.slice(start, start + OPEN_BUTTONS_PER_ROW));
  const last: InlineKeyboardButton[] = [];
  if (shown.length < changeSet.changes.length && canInline(target.query)) {
    last.push({ text: t('notification.showQuery'), callback_data: packCallback({ type: 'lookup', ref: { query: target.query } }) });
  }
  last.push({ text: t('notification.stop'), callback_data: packCallback({ type: 'unwatch', watchId }), style: 'danger' });
  const options = { id: watchId, ...(watch.statusOnly && { statusOnly: true as const }), ...(watch.digestOnly && { digestOnly: true as const }) };
  return [...rows, snoozeButtons(options, t), optionSwitches(options, t), last];
};

/** The first line: what the query is; for folded changes, since when. */
const headerOf = (changeSet: ChangeSet, target: WatchTarget, t: Translate, fmt: Formatter): string => {
  const query = describeQuery(target.query, t, fmt);
  const what = t(changeSet.resource === 'order' ? 'notification.orders' : 'notification.specifications', { query });
  if (changeSet.since === undefined) return what;
  return t('snooze.woken', { what: t(changeSet.resource === 'order' ? 'watch.what.orders' : 'watch.what.specifications', { query }), since: fmt.dateTime(new Date(changeSet.since), new Date(changeSet.foundAt)) });
};

/**
 * «🔔 Изменения: заказы, номер SAP «0007300100»», then each changed record (a blank line between
 * them); records that do not fit are counted in «… и ещё N записей изменились». Changes folded
 * over a snooze read one line per record. Buttons open the records shown, the whole query when
 * some were left out, snooze the watch, switch its options, and stop it.
 */
export const renderNotification = (
  changeSet: ChangeSet,
  target: WatchTarget,
  watchId: number,
  t: Translate,
  fmt: Formatter,
  fetchedAt?: Date,
  watch: NotifiedWatch = {},
): View => {
  const header = joinLines([headerOf(changeSet, target, t, fmt), renderFetchedAt(t, fmt, fetchedAt)]);
  const shown = fittingBlocks(changeSet, TELEGRAM_TEXT_LIMIT - visibleLength(header), t, fmt);
  const left = changeSet.changes.length - shown.length;
  const text = [header, ...shown.map((block) => block.html), ...(left > 0 ? [t('notification.moreRecords', { count: left })] : [])].join(BLANK_LINE);
  return { text, keyboard: keyboardOf(changeSet, shown, target, watchId, t, watch) };
};
