import { createFeature } from '../feature.ts';
import { replyOptions } from '../reply.ts';

/**
 * Last. A button no feature knows (forged, or from an older version) is still answered; anything
 * else said in a private chat gets a pointer to /help. In groups the bot keeps quiet.
 */
export const createFallbackFeature = () => {
  const feature = createFeature();
  feature.on('callback_query', (ctx) => ctx.answerOnce(ctx.t('errors.staleButton'), true));
  feature.on('message', async (ctx, next) => {
    if (ctx.chat.type !== 'private') return next();
    await ctx.reply(ctx.t('fallback.unknown'), replyOptions(ctx));
  });
  return feature;
};
