import type { InlineKeyboardButton } from '../../telegram/telegraf/core.ts';
import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import { RUSSIAN_ZONES } from '../../zone.ts';
import { packCallback } from '../callback-data/codec.ts';
import type { View } from '../../telegram/view.ts';
import { escapeHtml } from './common/html.ts';

// What /timezone says: the chat's zone and the time there now, the choice of Russia's zones, the
// answer to a name no one knows.

const ZONES_PER_ROW = 2;

/** «Екатеринбург, UTC+5» for a zone of the buttons. */
const zoneLabel = (zone: (typeof RUSSIAN_ZONES)[number], t: Translate): string => t(`timezone.names.${zone.split('/')[1]!.toLowerCase()}`);

/** The Russian zones, two a row, the chat's own marked. */
export const zoneKeyboard = (current: string, t: Translate): InlineKeyboardButton[][] => {
  const buttons = RUSSIAN_ZONES.map((zone, index): InlineKeyboardButton => ({
    text: `${zone === current ? '✓ ' : ''}${zoneLabel(zone, t)}`,
    callback_data: packCallback({ type: 'timeZone', zone: index }),
  }));
  const rows: InlineKeyboardButton[][] = [];
  for (let start = 0; start < buttons.length; start += ZONES_PER_ROW) rows.push(buttons.slice(start, start + ZONES_PER_ROW));
  return rows;
};

/** «🕒 Часовой пояс: Asia/Yekaterinburg, сейчас 16:05.» (times in `fmt`, which reads the zone). */
export const renderZoneNow = (zone: string, own: boolean, fmt: Formatter, now: Date, t: Translate): string =>
  t(own ? 'timezone.current' : 'timezone.currentDefault', { zone: escapeHtml(zone), time: fmt.time(now) });

/** `/timezone` alone: the zone, how to change it, the buttons. */
export const renderZoneChoice = (zone: string, own: boolean, inGroup: boolean, fmt: Formatter, now: Date, t: Translate): View => ({
  text: [renderZoneNow(zone, own, fmt, now, t), t('timezone.usage'), t(inGroup ? 'timezone.chooseGroup' : 'timezone.choose')].join('\n\n'),
  keyboard: zoneKeyboard(zone, t),
});

/** A name Intl does not know: examples, and the buttons. */
export const renderUnknownZone = (given: string, current: string, t: Translate): View => ({
  text: t('timezone.unknown', { given: escapeHtml(given) }),
  keyboard: zoneKeyboard(current, t),
});

/** The zone set; when the chat has a digest, when it comes in the new zone. */
export const renderZoneSet = (zone: string, fmt: Formatter, now: Date, digestAt: Date | undefined, t: Translate): string =>
  [t('timezone.set', { zone: escapeHtml(zone), time: fmt.time(now) }), ...(digestAt === undefined ? [] : [t('timezone.digestMoved', { time: fmt.dateTime(digestAt, now) })])].join('\n');
