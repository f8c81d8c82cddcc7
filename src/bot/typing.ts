import type { BotContext } from './context.ts';

/** An answer faster than this needs no "typing…": it would only flash, at the cost of a call. */
export const TYPING_AFTER_MS = 300;
/** Telegram shows a chat action for about five seconds: it is sent again while the work goes on. */
export const TYPING_EVERY_MS = 4_500;

/**
 * Waits for `work`, and shows "typing…" in the chat while it takes longer than TYPING_AFTER_MS.
 * A chat action still on its way is awaited before this returns, so it never lands after the
 * answer (which would show "typing…" under it for five seconds).
 */
export const whileTyping = async <T>(ctx: BotContext, work: Promise<T>): Promise<T> => {
  let sending: Promise<unknown> = Promise.resolve();
  const send = () => {
    sending = ctx.sendChatAction('typing').catch(() => undefined);
  };
  let timer = setTimeout(function tick() {
    send();
    timer = setTimeout(tick, TYPING_EVERY_MS);
  }, TYPING_AFTER_MS);
  try {
    return await work;
  } finally {
    clearTimeout(timer);
    await sending;
  }
};
