import { Composer } from 'telegraf';
import type { BotContext } from '../context.ts';

/** Last: a button no feature knows (forged, or from an older version) is still answered. */
export const createFallbackFeature = () => {
  const feature = new Composer<BotContext>();
  feature.on('callback_query', (ctx) => ctx.answerOnce(ctx.t('errors.staleButton'), true));
  return feature;
};
