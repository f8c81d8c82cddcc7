import type { Logger } from 'pino';
import type { Update } from './telegraf/core.ts';
import { runInUpdateScope } from './update-scope.ts';

/**
 * Handles one update within its deadline, for the keyed queue: resolves only when the handler
 * really ended (the bot must not time it out itself: Telegraf's handlerTimeout is Infinity), so a
 * chat's next update never runs beside it.
 */
export const createUpdateHandler =
  ({ bot, logger, deadlineMs }: { bot: { handleUpdate(update: Update): Promise<void> }; logger: Logger; deadlineMs: number }) =>
  async (update: Update): Promise<void> => {
    try {
      await runInUpdateScope({ updateId: update.update_id, deadlineMs, logger }, () => bot.handleUpdate(update));
    } catch (error) {
      // The bot's error boundary failed too: this update is lost, the others go on.
      logger.error({ err: error, updateId: update.update_id }, 'update handler failed');
    }
  };
