// getChatMember and getChatAdministrators over the membership in members.ts.
import type { ChatMember } from 'telegraf/types';
import { badRequest } from './errors.ts';
import { botMember, memberOf, memberUser, toChatMember } from './members.ts';
import type { MethodHandler } from './method-context.ts';

export const getChatMember: MethodHandler = ({ params, state, noteChat }) => {
  // the user is read before the chat, as the Bot API server does
  const userId = params.int('user_id') ?? 0;
  if (userId <= 0) throw badRequest('invalid user_id specified');
  const record = state.chats.resolve(params);
  noteChat(record.chat.id);
  const user = memberUser(state, userId);
  // Telegram answers every failure to find the member so (tdlib's "Member not found" included)
  if (user === undefined) throw badRequest('user not found');
  if (record.chat.type === 'private') {
    // a private chat has two members, the user and the bot
    if (userId !== record.chat.id && userId !== state.bot.id) throw badRequest('user not found');
    return { user, status: 'member' } satisfies ChatMember;
  }
  // With "Hide Members" on, a bot that is not an admin may ask only about itself (Telegram
  // answers CHAT_ADMIN_REQUIRED, or PARTICIPANT_ID_INVALID, as tdlib words it).
  const bot = botMember(record, state.bot.id);
  if (record.membersHidden && userId !== state.bot.id && bot.status !== 'creator' && bot.status !== 'administrator') throw badRequest('CHAT_ADMIN_REQUIRED');
  return toChatMember(memberOf(state, record, userId), user, record.chat.type);
};

export const getChatAdministrators: MethodHandler = ({ params, state, noteChat }) => {
  const record = state.chats.resolve(params);
  noteChat(record.chat.id);
  if (record.chat.type === 'private') throw badRequest('there are no administrators in the private chat');
  const ids = [...record.members.keys()];
  if (!ids.includes(state.bot.id)) ids.push(state.bot.id);
  const admins = ids
    .map((id) => ({ id, member: memberOf(state, record, id) }))
    .filter(({ member }) => member.status === 'creator' || member.status === 'administrator')
    .sort((a, b) => Number(b.member.status === 'creator') - Number(a.member.status === 'creator'));
  return admins.flatMap(({ id, member }) => {
    const user = memberUser(state, id);
    return user === undefined ? [] : [toChatMember(member, user, record.chat.type)];
  });
};
