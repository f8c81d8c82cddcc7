import type { Message } from '../telegram/telegraf/core.ts';

// Whom /allow and /deny name: an id typed after the command, the person a replied-to forwarded
// message came from (or, in a group, the author of the replied-to message), or the group itself.

export type AdminTarget =
  | { kind: 'user'; id: number; label?: string }
  | { kind: 'group' }
  | { kind: 'usage' }
  | { kind: 'badId'; value: string }
  | { kind: 'groupId'; id: number }
  | { kind: 'hiddenForward'; name: string }
  | { kind: 'chatForward' }
  | { kind: 'notAPerson' };

/** Telegram's ids fit in 52 bits; a user's is positive, a group's negative. */
const ID = /^-?\d{1,16}$/;

type Person = { id: number; is_bot: boolean; first_name: string; last_name?: string; username?: string };

const labelOf = (user: Person): string => {
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  return user.username ? `${name} (@${user.username})` : name;
};

/** Who a replied-to message names: its forward's origin, else (in a group) its author. */
const fromReply = (reply: Message, inGroup: boolean): AdminTarget => {
  const origin = 'forward_origin' in reply ? reply.forward_origin : undefined;
  if (origin?.type === 'user') return origin.sender_user.is_bot ? { kind: 'notAPerson' } : { kind: 'user', id: origin.sender_user.id, label: labelOf(origin.sender_user) };
  if (origin?.type === 'hidden_user') return { kind: 'hiddenForward', name: origin.sender_user_name };
  if (origin !== undefined) return { kind: 'chatForward' };
  const author = reply.from;
  if (inGroup && author !== undefined && !author.is_bot) return { kind: 'user', id: author.id, label: labelOf(author) };
  return { kind: 'notAPerson' };
};

export const parseAdminTarget = (payload: string, message: Message, inGroup: boolean): AdminTarget => {
  const words = payload.trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  if (first !== undefined) {
    if (words.length > 1 || !ID.test(first)) return { kind: 'badId', value: payload.trim().slice(0, 64) };
    const id = Number(first);
    if (id < 0) return { kind: 'groupId', id };
    if (id === 0) return { kind: 'badId', value: first };
    return { kind: 'user', id };
  }
  const reply = 'reply_to_message' in message ? message.reply_to_message : undefined;
  // In a forum topic every message "replies" to the topic's first, service message: no reply meant.
  if (reply !== undefined && !('forum_topic_created' in reply)) return fromReply(reply as Message, inGroup);
  return inGroup ? { kind: 'group' } : { kind: 'usage' };
};
