import type { InlineKeyboardButton } from '../../telegram/telegraf/core.ts';
import { LOCALES, type Locale, type Translate } from '../../i18n.ts';
import { PAGE_SIZES, type PageSize } from '../../query.ts';
import { packCallback } from '../callback-data/codec.ts';
import type { View } from '../../telegram/view.ts';
import type { Digest } from '../../store/watch-store.ts';
import { escapeHtml } from './common/html.ts';
import { timeOfDay } from './digest-notices.ts';

/**
 * `autolookup`: whether the group reads every message for numbers; `answers`: the group's answer
 * mode (issue 32); each undefined where it does not apply.
 */
export type SettingsData = { locale: Locale; pageSize: PageSize; groupLocale: Locale | undefined; inGroup: boolean; autolookup?: boolean | undefined; answers?: 'private' | 'public' | undefined };

/** The settings, and in a group the state of /autolookup (where it applies) and of /answers, with the buttons that switch them. */
export const renderSettings = ({ locale, pageSize, groupLocale, inGroup, autolookup, answers }: SettingsData, t: Translate): View => {
  const lines = [t('settings.text', { language: t(`lang.names.${locale}`), pageSize })];
  if (inGroup && groupLocale) lines.push(t('settings.groupLanguage', { language: t(`lang.names.${groupLocale}`) }));
  const keyboard: InlineKeyboardButton[][] = [];
  if (inGroup && autolookup !== undefined) {
    lines.push(t('paste.autolookup.settings', { state: t(autolookup ? 'paste.autolookup.stateOn' : 'paste.autolookup.stateOff') }));
    keyboard.push([{ text: t(autolookup ? 'paste.autolookup.turnOff' : 'paste.autolookup.turnOn'), callback_data: packCallback({ type: 'autolookup', on: !autolookup }) }]);
  }
  if (inGroup && answers !== undefined) {
    const isPrivate = answers === 'private';
    lines.push(t('answers.settings', { state: t(isPrivate ? 'answers.statePrivate' : 'answers.statePublic') }));
    keyboard.push([{ text: t(isPrivate ? 'answers.makePublic' : 'answers.makePrivate'), callback_data: packCallback({ type: 'answerMode', mode: isPrivate ? 'public' : 'private' }) }]);
  }
  return { text: lines.join('\n'), keyboard };
};

/** Русский / English, for oneself or, by an admin, for the group. */
export const renderLanguageChoice = (scope: 'user' | 'chat', t: Translate): View => ({
  text: t(scope === 'chat' ? 'lang.chooseGroup' : 'lang.choose'),
  keyboard: [
    LOCALES.map((locale): InlineKeyboardButton => ({
      text: t(`lang.names.${locale}`),
      callback_data: packCallback({ type: 'language', locale, scope }),
    })),
  ],
});

/** 5 / 10 / 20, the current one marked. */
export const renderPageSizeChoice = (current: PageSize, t: Translate): View => ({
  text: t('pagesize.choose'),
  keyboard: [
    PAGE_SIZES.map((size): InlineKeyboardButton => ({
      text: size === current ? `✓ ${size}` : String(size),
      callback_data: packCallback({ type: 'pageSize', pageSize: size }),
    })),
  ],
});

/** «Часовой пояс: Asia/Yekaterinburg», «Сводка: в 09:00» (or «нет»); the digest only where watches may be kept. */
export const scheduleLines = ({ timeZone, digest, withDigest }: { timeZone: string; digest: Digest | undefined; withDigest: boolean }, t: Translate): string[] => [
  t('timezone.settingsLine', { zone: escapeHtml(timeZone) }),
  ...(withDigest ? [t('digest.settingsLine', { digest: digest === undefined ? t('digest.settingsOff') : t('digest.settingsAt', { time: timeOfDay(digest.minute) }) })] : []),
];

/** 🕒 and 🗓: the choices of the time zone and the digest. */
export const scheduleButtons = (withDigest: boolean, t: Translate): InlineKeyboardButton[][] => [
  [
    { text: t('timezone.button'), callback_data: packCallback({ type: 'timeZone', zone: 'choose' }) },
    ...(withDigest ? [{ text: t('digest.button.open'), callback_data: packCallback({ type: 'digest', minute: 'choose' }) }] : []),
  ],
];
