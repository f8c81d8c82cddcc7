import type { MiddlewareFn } from '../../telegram/telegraf/core.ts';
import type { BotMetrics } from '../../metrics/bot-metrics.ts';
import { updateTypeOf } from '../../metrics/bot-metrics.ts';
import type { BotContext } from '../context.ts';

/** Counts updates by type and times how long each took, errors included. */
export const updateMetrics = (metrics: BotMetrics): MiddlewareFn<BotContext> => async (ctx, next) => {
  const type = updateTypeOf(ctx.update);
  metrics.updates.inc({ type });
  const stop = metrics.updateDuration.startTimer({ type });
  try {
    await next();
  } finally {
    stop();
  }
};
