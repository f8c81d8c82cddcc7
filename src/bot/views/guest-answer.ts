import type { InlineKeyboardButton, InlineQueryResultArticle } from '../../telegram/telegraf/core.ts';
import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Results } from '../../portal/client.ts';
import { say } from './common/card-parts.ts';
import { describeQuery } from './common/describe-query.ts';
import { escapeHtml, toPlainText } from './common/html.ts';
import { recordsOf, withViews } from './resources.ts';
import { shortHash } from '../../short-hash.ts';

// Guest mode's answers (answerGuestQuery): the one message the bot posts into a chat it is not in,
// read by everyone there, the customer too. So a stranger's answer names nothing, and every answer
// is one article (the method takes one InlineQueryResult).

/** How many records a guest card of several shows before "open in the bot". */
export const GUEST_SHOWN = 3;

/**
 * The card's text and its keyboard: what the live card is edited to as well. `body` is the text
 * without the time of its data: a live card is edited only when that changes.
 */
export type GuestView = { title: string; text: string; keyboard: InlineKeyboardButton[][]; body?: string };

export const toGuestArticle = (id: string, card: GuestView): InlineQueryResultArticle => ({
  type: 'article',
  id,
  title: card.title,
  input_message_content: { message_text: card.text, parse_mode: 'HTML', link_preview_options: { is_disabled: true } },
  ...(card.keyboard.length === 0 ? {} : { reply_markup: { inline_keyboard: card.keyboard } }),
});

const openButton = (t: Translate, link: string | undefined): InlineKeyboardButton[][] => (link === undefined ? [] : [[{ text: t('guest.open'), url: link }]]);

// The card may stay days in the chat: its time always with the date (dateTime shows the date for a day other than "now").
const asOf = (t: Translate, fmt: Formatter, fetchedAt: Date) => `<i>${say(t, 'guest.asOf', { time: fmt.dateTime(fetchedAt, new Date(0)) })}</i>`;

/** Someone not on the allowlists: who the bot is for, and nothing else. */
export const renderGuestNeutral = (t: Translate): GuestView => ({ title: t('guest.neutralTitle'), text: say(t, 'guest.neutralText'), keyboard: [] });

/** No query in the words, nor in the message replied to. */
export const renderGuestUsage = (t: Translate, me: string): GuestView => ({ title: t('guest.usageTitle'), text: say(t, 'guest.usageText', { bot: `@${me}` }), keyboard: [] });

/** The portal failed: no data, a word to try again. */
export const renderGuestFailed = (t: Translate): GuestView => ({ title: t('guest.failedTitle'), text: say(t, 'guest.failedText'), keyboard: [] });

/**
 * The answer to a lookup: one record's card with the time of its data; several, the first
 * GUEST_SHOWN as lines with the count and a link that opens the lookup in the bot; none, "nothing found".
 */
export const renderGuestAnswer = (results: Results, t: Translate, fmt: Formatter, fetchedAt: Date, link: string | undefined): GuestView => {
  const { query, page } = results;
  const filter = toPlainText(describeQuery(query, t, fmt));
  if (page.items.length === 0) {
    const text = say(t, 'guest.nothingText', { filter });
    return { title: t('guest.nothingTitle'), body: text, text, keyboard: [] };
  }
  const items = withViews(recordsOf(results), (records, views) => records.slice(0, GUEST_SHOWN).map((record) => views.inline(record, t, fmt)));
  if (page.total === 1 && items[0] !== undefined) {
    return { title: items[0].title, body: items[0].text, text: `${items[0].text}\n\n${asOf(t, fmt, fetchedAt)}`, keyboard: openButton(t, link) };
  }
  const lines = items.map((item) => `• <b>${escapeHtml(item.title)}</b>\n${escapeHtml(item.description)}`);
  const header = `<b>${say(t, 'guest.found', { count: page.total, filter })}</b>`;
  const shown = page.total > items.length ? `\n${say(t, 'guest.shown', { shown: items.length })}` : '';
  const body = `${header}${shown}\n\n${lines.join('\n\n')}`;
  return { title: t('guest.found', { count: page.total, filter }), body, text: `${body}\n\n${asOf(t, fmt, fetchedAt)}`, keyboard: openButton(t, link) };
};

/** What a card shows, as the store keeps it: a hash of its text without the time of its data. */
export const shownOf = (view: GuestView): string => shortHash(view.body ?? view.text, 16);
