import type { Logger } from 'pino';
import type { Access } from '../../access.ts';
import { PortalError } from '../../portal/errors.ts';
import { PAGE_SIZES, type Query } from '../../query.ts';
import { recognise, type Identifier } from '../../recognise.ts';
import { isMissingMethod } from '../../telegram/fit.ts';
import { callBotApi, TelegramError, type InlineQueryResultArticle } from '../../telegram/telegraf/core.ts';
import type { BotContext } from '../context.ts';
import { createFeature } from '../feature.ts';
import { guestMessageOf, guestWords, repliedText, type GuestMessage } from '../guest-message.ts';
import { parseResourceArgs, startsWithResourceWord } from '../lookup-args.ts';
import type { Lookups } from '../lookups.ts';
import { lookupLink } from '../start-payload.ts';
import type { Statuses } from '../statuses.ts';
import { renderGuestAnswer, renderGuestFailed, renderGuestNeutral, renderGuestUsage, shownOf, toGuestArticle, type GuestView } from '../views/guest-answer.ts';

/** A guest card of one record, to keep live (src/app/guest-cards.ts edits it when the record changes). */
export type LiveGuestCard = { inlineMessageId: string; query: Query; locale: string; shown: string };

/** The query an identifier names, for the identifiers a lookup answers. */
const queryOf = (identifier: Identifier): Query | undefined => {
  if (identifier.kind === 'order' || identifier.kind === 'contract') return identifier.query;
  if (identifier.kind === 'material') return { resource: 'order', filter: 'POSITION[MATERIAL_SAP_ID]', value: identifier.code };
  return undefined;
};

/** The first identifier a text names that a lookup answers, read as pasted numbers are. */
const firstQuery = (text: string): Query | undefined => {
  for (const identifier of recognise(text, 'loose').identifiers) {
    const query = queryOf(identifier);
    if (query !== undefined) return query;
  }
  return undefined;
};

/**
 * The query of a guest message: the words after the mention (the inline words after a resource
 * word, `spec ДП-77/2026`; else the first number in them, read as pasted: `0007300100`), else, for a bare mention in reply to a
 * message, the first identifier of that message.
 */
const guestQuery = (message: GuestMessage, me: string, today: string): Query | undefined => {
  const words = guestWords(message, me);
  if (words !== '') {
    // "spec ДП-77/2026", "order material труба 530": the inline words; else the numbers in them, as pasted.
    if (!startsWithResourceWord(words)) return firstQuery(words);
    const args = parseResourceArgs(words, { today });
    return args.ok ? args.query : undefined;
  }
  const replied = repliedText(message);
  return replied === undefined ? undefined : firstQuery(replied);
};

/**
 * Guest mode: `@bot 0007300100` in a chat the bot is not in is answered with one message
 * (answerGuestQuery, once per query): the record's card, several records' first lines with "open
 * in the bot", "nothing found", or for anyone not on the allowlists a neutral line with no data.
 * The answer refused (answered already, too late) is logged; a server without the method (404)
 * turns guest answers off for the process, said once.
 */
export const createGuestFeature = ({
  lookups,
  access,
  statuses,
  logger,
  now = () => new Date(),
  live,
}: {
  lookups: Lookups;
  access: Pick<Access, 'isAllowedUser'>;
  statuses?: Statuses;
  logger: Logger;
  now?: () => Date;
  /** Keeps a card of one record live (GUEST_CARD_LIVE_DAYS); none: cards stay as sent. */
  live?: (card: LiveGuestCard) => Promise<void>;
}) => {
  let off = false;

  /** The inline_message_id of the sent answer, or undefined when none was sent. */
  const send = async (ctx: BotContext, message: GuestMessage, result: InlineQueryResultArticle): Promise<string | undefined> => {
    try {
      const sent = await callBotApi(ctx.telegram, 'answerGuestQuery', { guest_query_id: message.guest_query_id, result });
      return sent.inline_message_id;
    } catch (error) {
      if (isMissingMethod(error)) {
        off = true;
        ctx.features.lacks('guestQueries', { refused: 'answerGuestQuery' });
        return undefined;
      }
      if (!(error instanceof TelegramError) || error.code !== 400) throw error;
      // Answered already (by another replica, a repeated update) or past its lifetime: nothing to repair.
      logger.warn({ chatId: message.chat.id, userId: message.from?.id, description: error.response.description }, 'Telegram refused the answer to a guest query');
      return undefined;
    }
  };

  const feature = createFeature();
  const answerGuest = async (ctx: BotContext, message: GuestMessage): Promise<unknown> => {
    if (off) return;
    const answer = (card: GuestView) => send(ctx, message, toGuestArticle('guest', card));
    const userId = message.from?.id;
    if (userId === undefined || !access.isAllowedUser(userId)) return answer(renderGuestNeutral(ctx.t));
    const found = guestQuery(message, ctx.me, ctx.fmt.day(now()));
    if (found === undefined) return answer(renderGuestUsage(ctx.t, ctx.me));
    const query = statuses ? await statuses.codeFor(found) : found;
    let results;
    try {
      results = await lookups.fetchPage(query, PAGE_SIZES[0], 0, { userId, chatId: message.chat.id, via: 'guest' });
    } catch (error) {
      if (!(error instanceof PortalError)) throw error;
      return answer(renderGuestFailed(ctx.t));
    }
    const link = results.page.items.length === 0 ? undefined : lookupLink(ctx.me, await lookups.keyFor(query));
    const card = renderGuestAnswer(results, ctx.t, ctx.fmt, now(), link);
    const inlineMessageId = await answer(card);
    if (inlineMessageId === undefined || results.page.total !== 1 || !live) return;
    try {
      await live({ inlineMessageId, query, locale: ctx.locale, shown: shownOf(card) });
    } catch (error) {
      // The card was sent: it stays as it is, the user saw nothing wrong.
      logger.warn({ err: error, inlineMessageId }, 'a guest card could not be kept live');
    }
  };
  // Most updates carry no guest message: handed on without an async frame.
  feature.use((ctx, next) => {
    const message = guestMessageOf(ctx);
    return message === undefined ? next() : answerGuest(ctx, message);
  });
  return feature;
};
