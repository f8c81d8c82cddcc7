import { Composer } from 'telegraf';
import { fetchResults, type PortalClient, type Results } from '../../portal/client.ts';
import type { Query, Resource } from '../../portal/query.ts';
import { canInline, type QueryRef } from '../callback-data.ts';
import type { BotContext } from '../context.ts';
import { parseLookupArgs } from '../lookup-args.ts';
import { onCallback } from '../on-callback.ts';
import { lastPageOffset } from '../paging.ts';
import type { QueryStore } from '../query-store.ts';
import { replyOptions } from '../reply.ts';
import { isNotModified } from '../telegram-errors.ts';
import { renderLookup } from '../views/lookup.ts';
import { renderUsage } from '../views/notices.ts';

export type LookupDeps = { portal: PortalClient; queries: QueryStore };

/** `/order …` and `/spec …`, and the ◀ ▶ buttons under their results. */
export const createLookupFeature = ({ portal, queries }: LookupDeps) => {
  const feature = new Composer<BotContext>();

  const refFor = (query: Query): QueryRef => (canInline(query) ? { query } : { key: queries.save(query) });
  const resolve = (ref: QueryRef): Query | undefined => ('query' in ref ? ref.query : queries.load(ref.key));

  /** A page of results; a page past the end (the data moved) falls back to the last one. */
  const fetchPage = async (query: Query, limit: BotContext['pageSize'], offset: number): Promise<Results> => {
    const results = await fetchResults(portal, query, { limit, offset });
    const last = lastPageOffset(results.page.total, limit);
    if (results.page.items.length === 0 && offset > last) return fetchResults(portal, query, { limit, offset: last });
    return results;
  };

  const lookup = (resource: Resource) => async (ctx: BotContext & { payload: string }) => {
    const args = parseLookupArgs(resource, ctx.payload);
    if (!args.ok) return ctx.reply(renderUsage(resource, args, ctx.t), replyOptions(ctx));
    await ctx.sendChatAction('typing').catch(() => undefined);
    const results = await fetchPage(args.query, ctx.pageSize, 0);
    const view = renderLookup(results, refFor(args.query), ctx.t, ctx.fmt);
    return ctx.reply(view.text, { ...replyOptions(ctx), reply_markup: { inline_keyboard: view.keyboard } });
  };

  feature.command('order', lookup('order'));
  feature.command('spec', lookup('specification'));

  feature.use(
    onCallback('page', async (ctx, action) => {
      const query = resolve(action.ref);
      if (!query) return ctx.answerOnce(ctx.t('errors.staleButton'), true);
      await ctx.answerOnce();
      const results = await fetchPage(query, action.limit, action.offset);
      const view = renderLookup(results, action.ref, ctx.t, ctx.fmt);
      try {
        await ctx.editMessageText(view.text, {
          parse_mode: 'HTML',
          link_preview_options: { is_disabled: true },
          reply_markup: { inline_keyboard: view.keyboard },
        });
      } catch (error) {
        // A double tap asks for the page already shown: nothing to change, nothing to say.
        if (!isNotModified(error)) throw error;
      }
    }),
  );
  feature.use(onCallback('noop', (ctx) => ctx.answerOnce()));

  return feature;
};
