// The test side of membership: who created the group, who administers it, who was banned.
import type { User } from 'telegraf/types';
import type { ChatRecord, EmulatedChat } from './chats.ts';
import { MEMBER_STATUSES, newMember } from './members.ts';
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

/** A supergroup's "Hide Members" setting: on, only its admins (and an admin bot) may see who is a member. */
export function hideMembers(state: EmulatorState, chat: number | EmulatedChat, hidden: boolean): void {
  const record = chatRecordOf(state, chat);
  if (record.chat.type !== 'supergroup') throw new Error('bot API emulator: only supergroups can hide their members');
  record.membersHidden = hidden;
}
