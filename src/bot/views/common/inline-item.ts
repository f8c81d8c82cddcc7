import type { Translate } from '../../../i18n.ts';
import { shortHash } from '../../../short-hash.ts';
import { DEFAULT_CARD_OPTIONS, DEGRADE_STEPS } from './card-parts.ts';
import type { CardOptions } from './card-parts.ts';
import { TELEGRAM_TEXT_LIMIT, shorten, toPlainText, visibleLength } from './html.ts';

// Inline mode: a title and a one-line description in Telegram's list (plain text), and the
// message sent when one is chosen (HTML: the compact card).

export type InlineItem = { id: string; title: string; description: string; text: string };

/** Portal text in a title or a description: the list shows one line. */
export const SUMMARY_OPTIONS: CardOptions = { ...DEFAULT_CARD_OPTIONS, maxTextLength: 64 };
/** Telegram shows one line of each; the rest would only weigh on the answer. */
export const MAX_TITLE_LENGTH = 128;
export const MAX_DESCRIPTION_LENGTH = 256;
const SEPARATOR = ' · ';
/** Telegram's limit for a result id is 64 bytes. */
const READABLE_ID = /^[\x21-\x7e]{1,60}$/;

/** "o:0007300100"; a key that is not short printable ASCII goes by its hash. */
export const resultId = (prefix: 'o' | 's', key: string): string => (READABLE_ID.test(key) ? `${prefix}:${key}` : `${prefix}#${shortHash(key, 43)}`);

/** HTML lines as one line of plain text, at most `max` characters. */
export const plainLine = (lines: ReadonlyArray<string | null>, max: number): string =>
  shorten(
    lines
      .filter((line): line is string => line !== null && line !== '')
      .map(toPlainText)
      .join(SEPARATOR),
    max,
  );

/** The most detailed compact card that fits one message. */
export const fittingCard = (render: (options: CardOptions) => string): string => {
  let card = '';
  for (const options of DEGRADE_STEPS) {
    card = render(options);
    if (visibleLength(card) <= TELEGRAM_TEXT_LIMIT) return card;
  }
  return card;
};

export const positionCount = (count: number, t: Translate): string | null => (count === 0 ? null : t('card.positionCount', { count }));
