// Telegram's limits for a bot's messages: about 30 a second in all, 1 a second in one chat, 20 a
// minute in one group. `wait` says how long a message to a chat must wait; `sent` records one.
// Memory is bounded: a chat's history is forgotten once it no longer limits anything.

const SECOND = 1000;
const MINUTE = 60_000;

export type SendLimitOptions = { perSecond?: number; perChatMs?: number; perGroupPerMinute?: number };

/** A group or channel: Telegram gives negative ids to everything but private chats. */
export const isGroupChat = (chatId: number): boolean => chatId < 0;

export const createSendLimits = ({ perSecond = 30, perChatMs = SECOND, perGroupPerMinute = 20 }: SendLimitOptions = {}) => {
  /** The send times of the last second, in all. */
  const recent: number[] = [];
  /** Per chat: its send times within the last minute (groups) or its last one (private chats). */
  const chats = new Map<number, number[]>();

  const forget = (now: number) => {
    while (recent.length > 0 && recent[0]! <= now - SECOND) recent.shift();
  };

  return {
    /** Milliseconds until a message to `chatId` may go (0: now). */
    wait(chatId: number, now: number): number {
      forget(now);
      let wait = recent.length >= perSecond ? recent[0]! + SECOND - now : 0;
      const times = chats.get(chatId) ?? [];
      const last = times.at(-1);
      if (last !== undefined) wait = Math.max(wait, last + perChatMs - now);
      if (isGroupChat(chatId)) {
        const inMinute = times.filter((at) => at > now - MINUTE);
        if (inMinute.length >= perGroupPerMinute) wait = Math.max(wait, inMinute[inMinute.length - perGroupPerMinute]! + MINUTE - now);
      }
      return Math.max(0, wait);
    },
    sent(chatId: number, now: number): void {
      recent.push(now);
      const times = (chats.get(chatId) ?? []).filter((at) => at > now - MINUTE);
      times.push(now);
      chats.set(chatId, times.slice(-perGroupPerMinute));
    },
    /** Drops chats that limit nothing any more; called now and then, not per message. */
    sweep(now: number): void {
      for (const [chatId, times] of chats) if ((times.at(-1) ?? 0) <= now - MINUTE) chats.delete(chatId);
    },
    /** Chats remembered: bounded by those written to in the last minute. */
    size: () => chats.size,
  };
};
