import type { Logger } from 'pino';
import { createFormatter } from '../format.ts';
import { createTranslator, isLocale, perLocale, type Locale } from '../i18n.ts';
import { PortalError } from '../portal/errors.ts';
import { fetchResults, type PortalClient } from '../portal/client.ts';
import { PAGE_SIZES } from '../query.ts';
import { queryKey } from '../store/query-store.ts';
import { guestQueryKey } from '../store/guest-card-rows.ts';
import type { GuestCard, GuestCardStore } from '../store/store.ts';
import { isMessageGone, isNotModified } from '../telegram/errors.ts';
import { callBotApi, TelegramError, type Telegram } from '../telegram/telegraf/core.ts';
import { lookupLink } from '../bot/start-payload.ts';
import { renderGuestAnswer, shownOf, type GuestView } from '../bot/views/guest-answer.ts';

// Live guest cards (issue 32): a guest card of one record is edited when a poll sees the record
// change, for GUEST_CARD_LIVE_DAYS. Run by the watch loop beside the watch polls, at the watch
// interval: each query is asked for once per interval (claimed in the store, so once across
// replicas), however many cards show it.

/** Queries checked in one round: the portal's connections go to user lookups first. */
const QUERIES_PER_ROUND = 20;

export type GuestCardRefreshOptions = {
  store: GuestCardStore;
  /** The portal past its cache. */
  portal: PortalClient;
  telegram: Pick<Telegram, 'callApi'>;
  logger: Logger;
  intervalMs: number;
  timeZone: string;
  /** The bot's username (getMe), for the "open in the bot" link. */
  me: () => string | undefined;
  now?: () => number;
};

export const createGuestCardRefresh = ({ store, portal, telegram, logger, intervalMs, timeZone, me, now = Date.now }: GuestCardRefreshOptions) => {
  const translators = perLocale(createTranslator);
  const formatters = perLocale((locale) => createFormatter(locale, timeZone));

  const edit = async (card: GuestCard, view: GuestView): Promise<void> => {
    try {
      await callBotApi(telegram, 'editMessageText', {
        inline_message_id: card.inlineMessageId,
        text: view.text,
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        ...(view.keyboard.length > 0 && { reply_markup: { inline_keyboard: view.keyboard } }),
      });
    } catch (error) {
      if (isNotModified(error)) return;
      // The message is gone, or Telegram no longer knows its id: nothing more to keep live.
      if (isMessageGone(error) || (error instanceof TelegramError && /MESSAGE_ID_INVALID/.test(error.response.description ?? ''))) {
        await store.remove(card.inlineMessageId);
        return;
      }
      throw error;
    }
    await store.setShown(card.inlineMessageId, shownOf(view));
    logger.info({ inlineMessageId: card.inlineMessageId, resource: card.query.resource, value: card.query.value }, 'guest card updated');
  };

  return {
    /** One round: expired cards forgotten, the due queries asked for once each, changed cards edited. */
    async tick(): Promise<void> {
      const at = now();
      await store.prune(at);
      const cards = await store.claimDue(at, at - intervalMs, QUERIES_PER_ROUND);
      const byQuery = Map.groupBy(cards, guestQueryKey);
      for (const group of byQuery.values()) {
        const { query } = group[0]!;
        let results;
        try {
          results = await fetchResults(portal, query, { limit: PAGE_SIZES[0], offset: 0 });
        } catch (error) {
          // The portal fails: the cards stay as they are, the next interval asks again.
          if (error instanceof PortalError) continue;
          throw error;
        }
        const username = me();
        const link = username === undefined ? undefined : lookupLink(username, queryKey(query));
        for (const card of group) {
          const locale: Locale = isLocale(card.locale) ? card.locale : 'ru';
          const view = renderGuestAnswer(results, translators[locale], formatters[locale], new Date(at), link);
          if (shownOf(view) === card.shown) continue;
          try {
            await edit(card, view);
          } catch (error) {
            logger.warn({ err: error, inlineMessageId: card.inlineMessageId }, 'a guest card could not be updated');
          }
        }
      }
    },
  };
};

export type GuestCardRefresh = ReturnType<typeof createGuestCardRefresh>;
