// The test side of membership: who created the group, who administers it, who was banned.
import type { User } from 'telegraf/types';
import type { ChatRecord, EmulatedChat } from './chats.ts';
import { botMember, MEMBER_STATUSES, newMember, toChatMember } from './members.ts';
import { botAsSender } from './state.ts';
import type { MemberOptions, MemberStatus } from './members.ts';
import type { EmulatorState } from './state.ts';

function chatRecordOf(state: EmulatorState, chat: number | EmulatedChat): ChatRecord {
  if (typeof chat !== 'number') return state.chats.ensure(chat);
  const record = state.chats.find(chat);
  if (record === undefined) {
    throw new Error(
      `bot API emulator: no chat ${chat} yet; pass the chat object (from createGroup) to register it, or let someone write in it first`,
    );
  }
  return record;
}

function userIdOf(state: EmulatorState, user: number | User): number {
  if (typeof user !== 'number') {
    if (user.id !== state.bot.id) state.chats.registerUser(user);
    return user.id;
  }
  if (user !== state.bot.id && state.chats.user(user) === undefined) {
    throw new Error(`bot API emulator: no user ${user}; create it with createUser() (or pass the User)`);
  }
  return user;
}

export function setMember(
  state: EmulatorState,
  chat: number | EmulatedChat,
  user: number | User,
  status: MemberStatus,
  options: MemberOptions = {},
): void {
  if (!MEMBER_STATUSES.includes(status)) throw new Error(`bot API emulator: unknown member status ${JSON.stringify(status)}`);
  const record = chatRecordOf(state, chat);
  if (record.chat.type === 'private') throw new Error('bot API emulator: private chats have no member statuses to set');
  const userId = userIdOf(state, user);
  if (status === 'creator') {
    const creator = [...record.members].find(([id, m]) => m.status === 'creator' && id !== userId);
    if (creator !== undefined) throw new Error(`bot API emulator: chat ${record.chat.id} already has a creator, user ${creator[0]}`);
  }
  record.members.set(userId, newMember(status, options));
  if (userId === state.bot.id) {
    record.botKicked = status === 'kicked';
    record.botLeft = status === 'kicked' || status === 'left';
  }
  state.feed.emit();
}

export interface BotMembershipInput {
  /** the group; registered if nobody wrote in it yet */
  chat: EmulatedChat;
  /** who added or removed the bot: a member of the group (a member from then on) */
  by: User;
  /** the bot's new status: added, 'member' (default) or 'administrator'; removed, 'left' (default) or 'kicked' */
  status?: MemberStatus;
}

const IN_CHAT: ReadonlySet<MemberStatus> = new Set(['creator', 'administrator', 'member', 'restricted']);

/**
 * Someone adds the bot to a group or removes it: its status there changes and Telegram sends the
 * bot a `my_chat_member` update (ChatMemberUpdated: the chat, who did it, the old and new
 * ChatMember). Telegram also posts a service message about a new member; the emulator leaves it
 * out (the bot acts on the membership update alone).
 */
export function changeBotMembership(state: EmulatorState, { chat, by, status }: BotMembershipInput, added: boolean): void {
  if (chat.type === 'private') throw new Error('bot API emulator: a bot is not added to a private chat; the user starts it there');
  const record = state.chats.ensure(chat);
  state.chats.registerUser(by);
  const byMember = record.members.get(by.id);
  if (byMember?.status === 'kicked' || (byMember?.status === 'left' && !added)) throw new Error(`bot API emulator: user ${by.id} is not in chat ${chat.id}`);
  const known = record.members.has(state.bot.id) || record.botLeft;
  // Until a test set the bot's status (or added it), a group does not have the bot in it.
  const old = known ? botMember(record, state.bot.id) : newMember('left');
  const next = status ?? (added ? 'member' : 'left');
  if (added !== IN_CHAT.has(next)) throw new Error(`bot API emulator: status ${next} does not ${added ? 'add the bot to' : 'remove the bot from'} a group`);
  if (IN_CHAT.has(old.status) === added) throw new Error(`bot API emulator: the bot is ${added ? 'already in' : 'not in'} chat ${chat.id}`);
  if (byMember === undefined || byMember.status === 'left') record.members.set(by.id, newMember('member'));
  const member = newMember(next);
  record.members.set(state.bot.id, member);
  record.botKicked = next === 'kicked';
  record.botLeft = !added;
  const bot = botAsSender(state.bot);
  state.updates.push('my_chat_member', {
    chat: structuredClone(record.chat),
    from: structuredClone(by),
    date: state.clock.unix(),
    old_chat_member: toChatMember(old, bot, record.chat.type),
    new_chat_member: toChatMember(member, bot, record.chat.type),
  });
}

/** A supergroup's "Hide Members" setting: on, only its admins (and an admin bot) may see who is a member. */
export function hideMembers(state: EmulatorState, chat: number | EmulatedChat, hidden: boolean): void {
  const record = chatRecordOf(state, chat);
  if (record.chat.type !== 'supergroup') throw new Error('bot API emulator: only supergroups can hide their members');
  record.membersHidden = hidden;
}
