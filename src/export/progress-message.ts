import type { Logger } from 'pino';
import { callBotApi, TelegramError, type Telegram } from '../telegram/telegraf/core.ts';
import { isMessageGone, isNotModified } from '../telegram/errors.ts';
import type { View } from '../telegram/view.ts';

/** A count going up is shown at most this often: an edit a page would be 50 edits for 1000 records. */
export const PROGRESS_EVERY_MS = 2_000;

export type ProgressMessage = ReturnType<typeof createProgressMessage>;

/**
 * The one message an export speaks through, edited in place, one edit at a time and in order. A
 * message the user deleted is left alone (`gone`); the end of the export is then a new message.
 */
export const createProgressMessage = ({
  telegram,
  chatId,
  messageId,
  logger,
  clock = () => performance.now(),
  everyMs = PROGRESS_EVERY_MS,
}: {
  telegram: Telegram;
  chatId: number;
  messageId: number;
  logger: Pick<Logger, 'warn'>;
  clock?: () => number;
  everyMs?: number;
}) => {
  let shownAt = clock();
  let queue: Promise<void> = Promise.resolve();
  let gone = false;
  /** A count's edit is on its way. */
  let ticking = false;

  const edit = async (view: View): Promise<void> => {
    if (gone) return;
    try {
      await callBotApi(telegram, 'editMessageText', {
        chat_id: chatId,
        message_id: messageId,
        text: view.text,
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        reply_markup: { inline_keyboard: view.keyboard },
      });
    } catch (error) {
      if (isMessageGone(error)) gone = true;
      else if (!isNotModified(error)) throw error;
    }
  };

  /** Shows `view` after the edits before it; its own failure is its caller's. */
  const show = (view: View): Promise<void> => {
    shownAt = clock();
    const next = queue.then(() => edit(view));
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    show,
    /**
     * Shows a count unless the last edit is less than `everyMs` old or one is still on its way;
     * returns at once, so a slow edit never holds the portal reads. Progress is no reason to fail:
     * a failed edit is only logged.
     */
    tick: (view: View): void => {
      if (ticking || clock() - shownAt < everyMs) return;
      ticking = true;
      show(view)
        .catch((error: unknown) => logger.warn({ err: error, chatId }, 'an export progress edit failed'))
        .finally(() => (ticking = false));
    },
    /** Resolves once the edits asked for so far are done (or failed). */
    settled: (): Promise<void> => queue,
    /** The user deleted the message meanwhile. */
    gone: () => gone,
    /** Deletes the message once the file is there (one already deleted is fine). */
    remove: async (): Promise<void> => {
      await queue;
      if (gone) return;
      try {
        await telegram.deleteMessage(chatId, messageId);
      } catch (error) {
        // The file is there: a progress line left behind (deleted by the user, too old to delete,
        // Telegram failing) is no failure of the export.
        if (!(error instanceof TelegramError && error.code === 400)) logger.warn({ err: error, chatId }, 'could not delete an export progress message');
      }
    },
  };
};
