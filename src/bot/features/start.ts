import type { Query } from '../../query.ts';
import { createFeature } from '../feature.ts';
import { onCallback } from '../filters/on-callback.ts';
import type { ResultsAnswer } from '../answer-results.ts';
import { asker, type Lookups } from '../lookups.ts';
import { lookupKeyOf } from '../start-payload.ts';
import { whileTyping } from '../typing.ts';
import { replyOptions, replyView } from '../reply.ts';
import { renderHelp, renderWelcome } from '../views/notices.ts';

/** What /start's buttons look up: an order, a contract's specifications, orders in a status. */
const EXAMPLES = {
  order: { resource: 'order', filter: 'SAP_ID', value: '0007300100' },
  spec: { resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'ДП-77/2026' },
  status: { resource: 'order', filter: 'STATUS', value: 'production' },
} as const satisfies Record<string, Query>;

export const createStartFeature = (options: { demo: boolean; lookups: Pick<Lookups, 'refFor' | 'resolve' | 'fetchPage'>; answer?: ResultsAnswer }) => {
  const feature = createFeature();
  feature.command('start', async (ctx) => {
    // t.me/<bot>?start=find_<key> (a guest card's "open in the bot"): the lookup, answered as /order would.
    const key = lookupKeyOf(ctx.payload);
    if (key !== undefined && options.answer !== undefined) {
      const ref = { key };
      const query = await options.lookups.resolve(ref);
      if (query === undefined) return ctx.reply(ctx.t('guest.staleLink'), replyOptions(ctx));
      ctx.retry = { type: 'page', ref, limit: ctx.pageSize, offset: 0, refresh: true };
      const results = await whileTyping(ctx, options.lookups.fetchPage(query, ctx.pageSize, 0, asker(ctx, 'command')));
      return replyView(ctx, await options.answer(ctx, results, ref));
    }
    const [order, spec, status] = await Promise.all([EXAMPLES.order, EXAMPLES.spec, EXAMPLES.status].map((query) => options.lookups.refFor(query)));
    return replyView(ctx, renderWelcome(options.demo, ctx.t, { order: order!, spec: spec!, status: status! }));
  });
  feature.command('help', (ctx) => ctx.reply(renderHelp(ctx.t, ctx.me), replyOptions(ctx)));
  feature.use(
    onCallback('help', async (ctx) => {
      await ctx.answerOnce();
      await ctx.reply(renderHelp(ctx.t, ctx.me), replyOptions(ctx));
    }),
  );
  return feature;
};
