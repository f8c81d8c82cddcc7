// Who is in a group and with which status, and the ChatMember objects getChatMember answers with
// (the Bot API's JsonChatMember: fields depend on the status and on group vs supergroup).
import type { ChatMember, User } from 'telegraf/types';
import type { ChatRecord } from './chats.ts';
import { botAsSender } from './state.ts';
import type { EmulatorState } from './state.ts';

export type MemberStatus = ChatMember['status'];

export const MEMBER_STATUSES: readonly MemberStatus[] = ['creator', 'administrator', 'member', 'restricted', 'left', 'kicked'];

export interface AdminRights {
  can_manage_chat: boolean;
  can_change_info: boolean;
  can_delete_messages: boolean;
  can_invite_users: boolean;
  can_restrict_members: boolean;
  can_pin_messages: boolean;
  can_manage_topics: boolean;
  can_promote_members: boolean;
  can_manage_video_chats: boolean;
  can_post_stories: boolean;
  can_edit_stories: boolean;
  can_delete_stories: boolean;
  is_anonymous: boolean;
}

export interface MemberPermissions {
  can_send_messages: boolean;
  can_send_audios: boolean;
  can_send_documents: boolean;
  can_send_photos: boolean;
  can_send_videos: boolean;
  can_send_video_notes: boolean;
  can_send_voice_notes: boolean;
  can_send_polls: boolean;
  can_send_other_messages: boolean;
  can_add_web_page_previews: boolean;
  can_change_info: boolean;
  can_invite_users: boolean;
  can_pin_messages: boolean;
  can_manage_topics: boolean;
}

export interface MemberOptions {
  /** administrators: changes to the default rights (all but can_promote_members and is_anonymous) */
  rights?: Partial<AdminRights>;
  /** restricted members: what they may still do (default: nothing) */
  permissions?: Partial<MemberPermissions>;
  /** creator and administrators */
  customTitle?: string;
  /** restricted and kicked: unix time the restriction ends; 0 (default) means forever */
  untilDate?: number;
  /** administrators: promoted by the bot, so the bot may edit their rights (default false) */
  canBeEdited?: boolean;
  /** creator: presence hidden (administrators: rights.is_anonymous) */
  isAnonymous?: boolean;
  /** restricted: still in the chat (default true) */
  isMember?: boolean;
}

export interface MemberRecord {
  status: MemberStatus;
  rights: AdminRights;
  permissions: MemberPermissions;
  customTitle: string | undefined;
  untilDate: number;
  canBeEdited: boolean;
  isAnonymous: boolean;
  isMember: boolean;
}

const ADMIN_DEFAULTS: AdminRights = {
  can_manage_chat: true,
  can_change_info: true,
  can_delete_messages: true,
  can_invite_users: true,
  can_restrict_members: true,
  can_pin_messages: true,
  can_manage_topics: true,
  can_promote_members: false,
  can_manage_video_chats: true,
  can_post_stories: true,
  can_edit_stories: true,
  can_delete_stories: true,
  is_anonymous: false,
};

const NO_PERMISSIONS: MemberPermissions = {
  can_send_messages: false,
  can_send_audios: false,
  can_send_documents: false,
  can_send_photos: false,
  can_send_videos: false,
  can_send_video_notes: false,
  can_send_voice_notes: false,
  can_send_polls: false,
  can_send_other_messages: false,
  can_add_web_page_previews: false,
  can_change_info: false,
  can_invite_users: false,
  can_pin_messages: false,
  can_manage_topics: false,
};

export const newMember = (status: MemberStatus, options: MemberOptions = {}): MemberRecord => ({
  status,
  rights: { ...ADMIN_DEFAULTS, ...options.rights },
  permissions: { ...NO_PERMISSIONS, ...options.permissions },
  customTitle: options.customTitle,
  untilDate: options.untilDate ?? 0,
  canBeEdited: options.canBeEdited ?? false,
  isAnonymous: options.isAnonymous ?? false,
  isMember: options.isMember ?? true,
});

/** The bot's own membership: a member of every group it is in, unless a test or leaveChat changed that. */
export function botMember(record: ChatRecord, botId: number): MemberRecord {
  if (record.botKicked) return record.members.get(botId) ?? newMember('kicked');
  if (record.botLeft) return newMember('left');
  return record.members.get(botId) ?? newMember('member');
}

export function memberOf(state: EmulatorState, record: ChatRecord, userId: number): MemberRecord {
  if (userId === state.bot.id) return botMember(record, userId);
  return record.members.get(userId) ?? newMember('left');
}

/** Administrators with can_delete_messages (and creators) may delete other people's messages. */
export function canDeleteOthers(state: EmulatorState, record: ChatRecord): boolean {
  if (record.chat.type === 'private') return true;
  const bot = botMember(record, state.bot.id);
  return bot.status === 'creator' || (bot.status === 'administrator' && bot.rights.can_delete_messages);
}

/** A user writes in (or presses a button of) a group: they are a member from then on. */
export function noteUserActivity(record: ChatRecord, userId: number, action: 'write' | 'press'): void {
  if (record.chat.type === 'private') return;
  const member = record.members.get(userId);
  const where = `chat ${record.chat.id}`;
  if (member?.status === 'kicked') {
    throw new Error(`bot API emulator: user ${userId} is banned from ${where} and cannot ${action === 'write' ? 'write' : 'press buttons'} there`);
  }
  if (action === 'write' && member?.status === 'restricted' && !member.permissions.can_send_messages) {
    throw new Error(`bot API emulator: user ${userId} is restricted in ${where} without can_send_messages and cannot write there`);
  }
  if (member === undefined || (action === 'write' && member.status === 'left')) record.members.set(userId, newMember('member'));
}

function adminJson(member: MemberRecord, chatType: string): Record<string, unknown> {
  const { rights } = member;
  return {
    can_be_edited: member.canBeEdited,
    can_manage_chat: rights.can_manage_chat,
    can_change_info: rights.can_change_info,
    can_delete_messages: rights.can_delete_messages,
    can_invite_users: rights.can_invite_users,
    can_restrict_members: rights.can_restrict_members,
    can_pin_messages: rights.can_pin_messages,
    ...(chatType === 'supergroup' ? { can_manage_topics: rights.can_manage_topics } : {}),
    can_promote_members: rights.can_promote_members,
    can_manage_video_chats: rights.can_manage_video_chats,
    can_post_stories: rights.can_post_stories,
    can_edit_stories: rights.can_edit_stories,
    can_delete_stories: rights.can_delete_stories,
    is_anonymous: rights.is_anonymous,
    // the Bot API still sends the pre-6.0 name alongside
    can_manage_voice_chats: rights.can_manage_video_chats,
    ...(member.customTitle === undefined ? {} : { custom_title: member.customTitle }),
  };
}

function restrictedJson(member: MemberRecord): Record<string, unknown> {
  const p = member.permissions;
  const media = p.can_send_audios && p.can_send_documents && p.can_send_photos && p.can_send_videos &&
    p.can_send_video_notes && p.can_send_voice_notes;
  return { until_date: member.untilDate, ...p, can_send_media_messages: media, is_member: member.isMember };
}

/** The ChatMember object for a user with this membership, shaped for the chat's type. */
export function toChatMember(member: MemberRecord, user: User, chatType: string): ChatMember {
  const base = { user: structuredClone(user), status: member.status };
  switch (member.status) {
    case 'creator':
      return {
        ...base,
        ...(member.customTitle === undefined ? {} : { custom_title: member.customTitle }),
        is_anonymous: member.isAnonymous,
      } as ChatMember;
    case 'administrator':
      return { ...base, ...adminJson(member, chatType) } as ChatMember;
    case 'restricted':
      // basic groups have no restricted members with permissions; the Bot API then sends the status only
      return (chatType === 'supergroup' ? { ...base, ...restrictedJson(member) } : base) as ChatMember;
    case 'kicked':
      return { ...base, until_date: member.untilDate } as ChatMember;
    default:
      return base as ChatMember;
  }
}

/** The user object of a member as the Bot API sends it; undefined for users Telegram does not know. */
export function memberUser(state: EmulatorState, userId: number): User | undefined {
  return userId === state.bot.id ? botAsSender(state.bot) : state.chats.user(userId);
}
