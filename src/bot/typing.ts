import type { BotContext } from './context.ts';
import { startLooking } from './reply.ts';

/** An answer faster than this needs no "typing…": it would only flash, at the cost of a call. */
export const TYPING_AFTER_MS = 300;
/** Telegram shows a chat action for about five seconds: it is sent again while the work goes on. */
export const TYPING_EVERY_MS = 4_500;
/** How long the answer waits for a chat action still on its way (one slowed by a 429, say). */
export const TYPING_SETTLE_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits for `work`, and shows "typing…" in the chat while it takes longer than TYPING_AFTER_MS.
 * A chat action still on its way is awaited (up to TYPING_SETTLE_MS) before this returns, so it
 * does not land after the answer, which would show "typing…" under it for five seconds.
 */
export const whileTyping = async <T>(ctx: BotContext, work: Promise<T>): Promise<T> => {
  // An answer for one user of a group: no "typing…" for everyone, an ephemeral "Looking…" instead (issue 32).
  if (ctx.answerPlace !== undefined) {
    startLooking(ctx);
    return work;
  }
  let sending: Promise<unknown> | undefined;
  const send = () => {
    try {
      sending = ctx.sendChatAction('typing').catch(() => undefined);
    } catch {
      // An update without a chat: nowhere to show it.
    }
  };
  let timer = setTimeout(function tick() {
    send();
    timer = setTimeout(tick, TYPING_EVERY_MS);
  }, TYPING_AFTER_MS);
  try {
    return await work;
  } finally {
    clearTimeout(timer);
    if (sending) await Promise.race([sending, sleep(TYPING_SETTLE_MS)]);
  }
};
