import type { InlineKeyboardButton } from '../../telegram/telegraf/core.ts';
import type { Locale, Translate } from '../../i18n.ts';
import type { Query, Resource } from '../../query.ts';
import { canInline, packCallback } from '../callback-data/codec.ts';
import type { KnownStatus, StatusField } from '../../status-names.ts';
import { escapeHtml, shorten } from './common/html.ts';
import type { View } from '../../telegram/view.ts';

/** The most status buttons one message shows. */
const MAX_BUTTONS = 30;
const PER_ROW = 2;

/** «Производство · production»: the operator's name in this language, else the portal's text, then the code. */
const labelOf = (status: KnownStatus, locale: Locale, t: Translate): string => {
  const name = status.names?.[locale] ?? status.text;
  return name === '' || name.toLowerCase() === status.code.toLowerCase() ? status.code : t('status.button', { name: shorten(name, 40), code: status.code });
};

/** A button per known status, each finding the records in it (as a new message). */
export const renderStatusButtons = (resource: Resource, field: StatusField, known: readonly KnownStatus[], locale: Locale, t: Translate): InlineKeyboardButton[][] => {
  const buttons = known.flatMap((status): InlineKeyboardButton[] => {
    const query = { resource, filter: field, value: status.code } as Query;
    return canInline(query) ? [{ text: labelOf(status, locale, t), callback_data: packCallback({ type: 'lookup', ref: { query } }) }] : [];
  });
  const shown = buttons.slice(0, MAX_BUTTONS);
  return Array.from({ length: Math.ceil(shown.length / PER_ROW) }, (_, row) => shown.slice(row * PER_ROW, row * PER_ROW + PER_ROW));
};

/**
 * The statuses to choose from: after `/order status` alone, for a name the bot does not know, or
 * for one that names several; none known yet: how to give a code.
 */
export const renderStatusChoice = (
  resource: Resource,
  field: StatusField,
  known: readonly KnownStatus[],
  said: { reason: 'unknown' | 'several'; value: string } | undefined,
  locale: Locale,
  t: Translate,
): View => {
  const keyboard = renderStatusButtons(resource, field, known, locale, t);
  const question = said === undefined ? t(field === 'STATUS_TYPE' ? 'status.chooseType' : 'status.choose') : t(`status.${said.reason}`, { value: escapeHtml(shorten(said.value, 100)) });
  if (keyboard.length === 0) return { text: said === undefined ? t('status.noneKnown') : `${question}\n\n${t('status.noneKnown')}`, keyboard: [] };
  return { text: question, keyboard };
};
