import type { Results } from '../../portal/client.ts';
import type { Resource } from '../../query.ts';
import type { QueryRef } from '../callback-data/codec.ts';
import type { BotContext } from '../context.ts';
import { createFeature } from '../feature.ts';
import { parseLookupArgs } from '../lookup-args.ts';
import { asker, type Lookups } from '../lookups.ts';
import { onCallback } from '../filters/on-callback.ts';
import { editView, replyOptions, replyView } from '../reply.ts';
import { whileTyping } from '../typing.ts';
import { renderLookup } from '../views/lookup.ts';
import { renderUsage } from '../views/notices.ts';
import type { Watches } from '../../watch/watches.ts';
import { watchState } from '../watching.ts';

/** `/order …` and `/spec …`, the ◀ ▶ and Refresh buttons under their results, and cross-links. */
export const createLookupFeature = ({ lookups, watches, now }: { lookups: Lookups; watches: Watches; now: () => Date }) => {
  const feature = createFeature();
  // Each results message shows 🔔, or 🔕 when the chat already watches its query.
  const render = async (ctx: BotContext, results: Results, ref: QueryRef) =>
    renderLookup(results, ref, ctx.t, ctx.fmt, now(), await watchState(watches, ctx, { query: results.query }));

  const lookup = (resource: Resource) => async (ctx: BotContext & { payload: string }) => {
    const args = parseLookupArgs(resource, ctx.payload);
    if (!args.ok) return ctx.reply(renderUsage(resource, args, ctx.t), replyOptions(ctx));
    const ref = await lookups.refFor(args.query);
    ctx.retry = { type: 'page', ref, limit: ctx.pageSize, offset: 0, refresh: true };
    const results = await whileTyping(ctx, lookups.fetchPage(args.query, ctx.pageSize, 0, asker(ctx, 'command')));
    return replyView(ctx, await render(ctx, results, ref));
  };

  feature.command('order', lookup('order'));
  feature.command('spec', lookup('specification'));

  feature.use(
    onCallback('page', async (ctx, action) => {
      const results = await lookups.pressed(ctx, action, { ...action, refresh: true });
      if (results) await editView(ctx, await render(ctx, results, action.ref));
    }),
  );

  // A cross-link runs its lookup as a new message, so the record it came from stays.
  feature.use(
    onCallback('lookup', async (ctx, action) => {
      const query = await lookups.resolve(action.ref);
      if (!query) return ctx.answerOnce(ctx.t('errors.staleButton'), true);
      await ctx.answerOnce();
      ctx.retry = { type: 'page', ref: action.ref, limit: ctx.pageSize, offset: 0, refresh: true };
      const results = await whileTyping(ctx, lookups.fetchPage(query, ctx.pageSize, 0, asker(ctx, 'button')));
      await replyView(ctx, await render(ctx, results, action.ref));
    }),
  );

  feature.use(onCallback('noop', (ctx) => ctx.answerOnce()));
  return feature;
};
