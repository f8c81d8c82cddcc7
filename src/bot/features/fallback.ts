import { createFeature } from '../feature.ts';
import { mentionsMe, repliesToMe } from '../filters/addressed.ts';
import { replyOptions } from '../reply.ts';

/**
 * Last. A button no feature knows (forged, or from an older version) is still answered; anything
 * else said to the bot (in a private chat; in a group a mention of it or a reply to it) gets what
 * can be pasted and a pointer to /help. Other group messages get nothing.
 */
export const createFallbackFeature = () => {
  const feature = createFeature();
  feature.on('callback_query', (ctx) => ctx.answerOnce(ctx.t('errors.staleButton'), true));
  feature.on('message', async (ctx, next) => {
    if (ctx.chat.type !== 'private' && !mentionsMe(ctx) && !repliesToMe(ctx)) return next();
    await ctx.reply(ctx.t('fallback.unknown'), replyOptions(ctx));
  });
  return feature;
};
