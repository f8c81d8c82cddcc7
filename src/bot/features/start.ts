import { Composer } from 'telegraf';
import type { BotContext } from '../context.ts';
import { replyOptions } from '../reply.ts';
import { renderHelp, renderWelcome } from '../views/notices.ts';

export const createStartFeature = (options: { demo: boolean }) => {
  const feature = new Composer<BotContext>();
  feature.start((ctx) => ctx.reply(renderWelcome(options.demo, ctx.t, ctx.me), replyOptions(ctx)));
  feature.help((ctx) => ctx.reply(renderHelp(ctx.t, ctx.me), replyOptions(ctx)));
  return feature;
};
