import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Watch } from '../../store/watch-store.ts';
import { packCallback } from '../callback-data/codec.ts';
import { optionPairs, snoozeButtons } from '../keyboards/watch-options.ts';
import type { View } from '../../telegram/view.ts';
import { describeTarget } from './watch-notices.ts';

// One watch's settings, opened by ⚙ from the /watch list: what it is told, when, a snooze; the
// buttons to change each, stop it, and go back to the list.

export const renderWatchSettings = (watch: Watch, n: number, offset: number, t: Translate, fmt: Formatter, now: Date): View => {
  const snoozed = watch.snoozedUntil !== undefined && watch.snoozedUntil > now.getTime();
  const shown = snoozed ? watch : { ...watch, snoozedUntil: undefined };
  const text = [
    t('snooze.settingsTitle', { n, what: describeTarget(watch.target, t, fmt) }),
    t('snooze.settingsMode', { mode: t(watch.statusOnly ? 'snooze.modeStatus' : 'snooze.modeAll') }),
    t('snooze.settingsDelivery', { delivery: t(watch.digestOnly ? 'snooze.deliveryDigest' : 'snooze.deliveryInstant') }),
    ...(snoozed ? [t('snooze.snoozedUntil', { until: fmt.dateTime(new Date(watch.snoozedUntil!), now) })] : []),
  ].join('\n');
  return {
    text,
    keyboard: [
      ...optionPairs(shown, t),
      snoozeButtons(shown, t),
      [
        { text: t('watch.button.stop'), callback_data: packCallback({ type: 'unwatch', watchId: watch.id }) },
        { text: t('snooze.button.back'), callback_data: packCallback({ type: 'watchList', offset }) },
      ],
    ],
  };
};
