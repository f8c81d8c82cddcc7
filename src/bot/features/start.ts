import { createFeature } from '../feature.ts';
import { replyOptions } from '../reply.ts';
import { renderHelp, renderWelcome } from '../views/notices.ts';

export const createStartFeature = (options: { demo: boolean }) => {
  const feature = createFeature();
  feature.command('start', (ctx) => ctx.reply(renderWelcome(options.demo, ctx.t, ctx.me), replyOptions(ctx)));
  feature.command('help', (ctx) => ctx.reply(renderHelp(ctx.t, ctx.me), replyOptions(ctx)));
  return feature;
};
