import type { InlineKeyboardButton } from '../../telegram/telegraf/core.ts';
import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Digest } from '../../store/watch-store.ts';
import { packCallback } from '../callback-data/codec.ts';
import type { View } from '../../telegram/view.ts';
import { escapeHtml } from './common/html.ts';

// What /digest says: the chat's digest, the choice of a few times, the confirmation, the refusals.

/** The times the buttons offer (minutes since midnight): the usual ones; any other by /digest HH:MM. */
const PRESETS = [7 * 60, 8 * 60, 9 * 60, 10 * 60, 13 * 60, 18 * 60];
const PER_ROW = 3;

/** «09:00». */
export const timeOfDay = (minute: number): string => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

const digestKeyboard = (current: Digest | undefined, t: Translate): InlineKeyboardButton[][] => {
  const times = PRESETS.map((minute): InlineKeyboardButton => ({
    text: `${current?.minute === minute ? '✓ ' : ''}${timeOfDay(minute)}`,
    callback_data: packCallback({ type: 'digest', minute }),
  }));
  const rows: InlineKeyboardButton[][] = [];
  for (let start = 0; start < times.length; start += PER_ROW) rows.push(times.slice(start, start + PER_ROW));
  return [...rows, [{ text: `${current === undefined ? '✓ ' : ''}${t('digest.button.off')}`, callback_data: packCallback({ type: 'digest', minute: null }) }]];
};

/** «🗓 Сводка: каждый день в 09:00 (Asia/Yekaterinburg), следующая — 24.11.2026 09:00.» or «🗓 Сводки нет.» */
export const renderDigestState = (digest: Digest | undefined, zone: string, fmt: Formatter, now: Date, t: Translate): string =>
  digest === undefined
    ? t('digest.none')
    : [t('digest.current', { time: timeOfDay(digest.minute), zone: escapeHtml(zone), next: fmt.dateTime(new Date(digest.nextAt), now) }), ...(digest.quiet ? [t('digest.setQuiet')] : [])].join(' ');

/** `/digest` alone: the state, the usage, the buttons. */
export const renderDigestChoice = (digest: Digest | undefined, zone: string, fmt: Formatter, now: Date, t: Translate): View => ({
  text: [renderDigestState(digest, zone, fmt, now, t), t('digest.usage', { zone: escapeHtml(zone) }), t('digest.choose', { zone: escapeHtml(zone) })].join('\n\n'),
  keyboard: digestKeyboard(digest, t),
});

/** The digest set: when, what it holds, the next one; that it waits for a watch when the chat has none. */
export const renderDigestSet = (digest: Digest, zone: string, watches: number, fmt: Formatter, now: Date, t: Translate): string =>
  [
    t('digest.set', { time: timeOfDay(digest.minute), zone: escapeHtml(zone), next: fmt.dateTime(new Date(digest.nextAt), now) }),
    ...(digest.quiet ? [t('digest.setQuiet')] : []),
    ...(watches === 0 ? [t('digest.noWatches')] : []),
  ].join(' ');

/** The digest stopped (and how many digest-only watches are told at once again), or there was none. */
export const renderDigestOff = (digestOnly: number | undefined, t: Translate): string =>
  digestOnly === undefined ? t('digest.notSet') : digestOnly === 0 ? t('digest.off') : t('digest.offDigestOnly', { count: digestOnly });

/** «"25:00" is not a time of day…» (or a word after the time that is not `quiet`) with the usage. */
export const renderBadDigest = (kind: 'badTime' | 'badWord', given: string, zone: string, t: Translate): string =>
  [t(`digest.${kind}`, { given: escapeHtml(given) }), t('digest.usage', { zone: escapeHtml(zone) })].join('\n\n');
