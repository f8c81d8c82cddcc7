import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Telegraf } from 'telegraf';
import type { ChatMember, Message, User } from 'telegraf/types';
import { startBotApi } from './bot-api/index.ts';
import type { BotApi } from './bot-api/index.ts';
import { caller } from './bot-api-http.ts';

let api: BotApi;
let ann: User;
let bob: User;
let stopBot: (() => Promise<void>) | undefined;
const { ok, fails } = caller(() => api);

beforeEach(async () => {
  api = await startBotApi();
  ann = api.createUser({ first_name: 'Ann' });
  bob = api.createUser({ first_name: 'Bob', username: 'bob' });
});

afterEach(async () => {
  await stopBot?.();
  stopBot = undefined;
  await api.close();
});

const member = (chat_id: number, user_id: number) => ok<ChatMember>('getChatMember', { chat_id, user_id });
const botUser = () => ({ id: api.botUser.id, is_bot: true, first_name: api.botUser.first_name, username: api.botUser.username });

describe('getChatMember', () => {
  it('makes users who write in a group members; others have left', async () => {
    const group = api.createGroup();
    api.sendText({ from: ann, chat: group, text: 'hello' });
    expect(await member(group.id, ann.id)).toEqual({ user: ann, status: 'member' });
    expect(await member(group.id, bob.id)).toEqual({ user: bob, status: 'left' });
    expect(await member(group.id, api.botUser.id)).toEqual({ user: botUser(), status: 'member' });
    await fails('getChatMember', { chat_id: group.id, user_id: 42 }, 400, 'Bad Request: user not found');
    await fails('getChatMember', { chat_id: -1, user_id: ann.id }, 400, 'Bad Request: chat not found');
    await fails('getChatMember', { chat_id: group.id }, 400, 'Bad Request: invalid user_id specified');
    await fails('getChatMember', { chat_id: group.id, user_id: 'ann' }, 400, 'Bad Request: invalid user_id specified');
    await fails('getChatMember', { user_id: ann.id }, 400, 'Bad Request: chat_id is empty');
    // users who left come back by writing again
    api.setMemberStatus(group.id, ann.id, 'left');
    expect((await member(group.id, ann.id)).status).toBe('left');
    api.sendText({ from: ann, chat: group, text: 'back' });
    expect((await member(group.id, ann.id)).status).toBe('member');
  });

  it('answers for the two members of a private chat', async () => {
    api.sendText({ from: ann, text: 'hi' });
    expect(await member(ann.id, ann.id)).toEqual({ user: ann, status: 'member' });
    expect(await member(ann.id, api.botUser.id)).toEqual({ user: botUser(), status: 'member' });
    await fails('getChatMember', { chat_id: ann.id, user_id: bob.id }, 400, 'Bad Request: user not found');
  });

  it('gives each status its own shape, by chat type', async () => {
    const supergroup = api.createGroup();
    api.setMemberStatus(supergroup, ann, 'creator');
    expect(await member(supergroup.id, ann.id)).toEqual({ user: ann, status: 'creator', is_anonymous: false });
    api.setMemberStatus(supergroup.id, bob.id, 'administrator', { rights: { can_restrict_members: false }, customTitle: 'Sales' });
    expect(await member(supergroup.id, bob.id)).toEqual({
      user: bob,
      status: 'administrator',
      can_be_edited: false,
      can_manage_chat: true,
      can_change_info: true,
      can_delete_messages: true,
      can_invite_users: true,
      can_restrict_members: false,
      can_pin_messages: true,
      can_manage_topics: true,
      can_promote_members: false,
      can_manage_video_chats: true,
      can_post_stories: true,
      can_edit_stories: true,
      can_delete_stories: true,
      is_anonymous: false,
      can_manage_voice_chats: true,
      custom_title: 'Sales',
    });
    const carl = api.createUser({ first_name: 'Carl' });
    api.setMemberStatus(supergroup.id, carl, 'restricted', { permissions: { can_send_messages: true }, untilDate: 1_900_000_000 });
    expect(await member(supergroup.id, carl.id)).toMatchObject({
      status: 'restricted',
      until_date: 1_900_000_000,
      is_member: true,
      can_send_messages: true,
      can_send_photos: false,
      can_send_media_messages: false,
    });
    api.setMemberStatus(supergroup.id, carl.id, 'kicked');
    expect(await member(supergroup.id, carl.id)).toEqual({ user: carl, status: 'kicked', until_date: 0 });

    const group = api.createGroup({ type: 'group' });
    api.setMemberStatus(group, bob.id, 'administrator');
    const admin = await member(group.id, bob.id);
    expect(admin).toMatchObject({ status: 'administrator', can_pin_messages: true });
    expect(admin).not.toHaveProperty('can_manage_topics');
  });

  it('refuses impossible setups in the test', () => {
    const group = api.createGroup();
    expect(() => api.setMemberStatus(group.id, ann.id, 'member')).toThrow(/no chat .* yet/);
    expect(() => api.setMemberStatus(group, 42, 'member')).toThrow(/no user 42/);
    expect(() => api.setMemberStatus(group, ann.id, 'owner' as never)).toThrow(/unknown member status/);
    api.setMemberStatus(group, ann.id, 'creator');
    expect(() => api.setMemberStatus(group, bob.id, 'creator')).toThrow(/already has a creator/);
    api.sendText({ from: ann, text: 'hi' });
    expect(() => api.setMemberStatus(ann.id, ann.id, 'administrator')).toThrow(/private chats/);
  });

  it('keeps banned users out, and restricted ones quiet', () => {
    const group = api.createGroup();
    api.setMemberStatus(group, ann, 'kicked');
    expect(() => api.sendText({ from: ann, chat: group, text: 'let me in' })).toThrow(/banned from chat/);
    api.setMemberStatus(group, bob, 'restricted');
    expect(() => api.sendText({ from: bob, chat: group, text: 'hm' })).toThrow(/without can_send_messages/);
    api.setMemberStatus(group, bob, 'restricted', { permissions: { can_send_messages: true } });
    expect(api.sendText({ from: bob, chat: group, text: 'hm' }).text).toBe('hm');
  });
});

describe('a supergroup that hides its members', () => {
  it('lets a bot that is not an admin ask only about itself; an admin bot about anyone; a basic group cannot hide them', async () => {
    const group = api.createGroup({ type: 'supergroup' });
    api.sendText({ from: ann, chat: group, text: 'hello' });
    api.setMemberStatus(group, bob, 'administrator');
    api.hideMembers(group);
    await fails('getChatMember', { chat_id: group.id, user_id: ann.id }, 400, 'Bad Request: CHAT_ADMIN_REQUIRED');
    await fails('getChatMember', { chat_id: group.id, user_id: bob.id }, 400, 'Bad Request: CHAT_ADMIN_REQUIRED');
    expect(await member(group.id, api.botUser.id)).toEqual({ user: botUser(), status: 'member' });
    api.setMemberStatus(group, api.botUser.id, 'administrator');
    expect(await member(group.id, ann.id)).toEqual({ user: ann, status: 'member' });
    api.setMemberStatus(group, api.botUser.id, 'member');
    api.hideMembers(group, false);
    expect(await member(group.id, ann.id)).toEqual({ user: ann, status: 'member' });
    expect(() => api.hideMembers(api.createGroup({ type: 'group' }))).toThrow(/only supergroups/);
  });
});

describe('getChatAdministrators', () => {
  it('lists the creator first, then administrators, the bot included when it is one', async () => {
    const group = api.createGroup();
    api.sendText({ from: ann, chat: group, text: 'hello' });
    expect(await ok('getChatAdministrators', { chat_id: group.id })).toEqual([]);
    api.setMemberStatus(group.id, bob.id, 'administrator');
    api.setMemberStatus(group.id, ann.id, 'creator');
    api.setMemberStatus(group.id, api.botUser.id, 'administrator', { rights: { can_delete_messages: false } });
    const admins = await ok<ChatMember[]>('getChatAdministrators', { chat_id: group.id });
    expect(admins.map((m) => [m.user.id, m.status])).toEqual([
      [ann.id, 'creator'],
      [bob.id, 'administrator'],
      [api.botUser.id, 'administrator'],
    ]);
    api.sendText({ from: ann, text: 'hi' });
    await fails('getChatAdministrators', { chat_id: ann.id }, 400, 'Bad Request: there are no administrators in the private chat');
    await fails('getChatAdministrators', { chat_id: -5 }, 400, 'Bad Request: chat not found');
  });
});

describe("the bot's own membership", () => {
  it('follows leaveChat and bans, and lets an administrator bot delete messages', async () => {
    const group = api.createGroup();
    const incoming = api.sendText({ from: ann, chat: group, text: 'spam' });
    await fails('deleteMessage', { chat_id: group.id, message_id: incoming.message_id }, 400, "Bad Request: message can't be deleted");
    api.setMemberStatus(group.id, api.botUser.id, 'administrator', { rights: { can_delete_messages: false } });
    await fails('deleteMessage', { chat_id: group.id, message_id: incoming.message_id }, 400, "Bad Request: message can't be deleted");
    api.setMemberStatus(group.id, api.botUser.id, 'administrator');
    expect(await ok('deleteMessage', { chat_id: group.id, message_id: incoming.message_id })).toBe(true);

    await ok('leaveChat', { chat_id: group.id });
    expect((await member(group.id, api.botUser.id)).status).toBe('left');
    api.setMemberStatus(group.id, api.botUser.id, 'kicked');
    expect((await member(group.id, api.botUser.id)).status).toBe('kicked');
    await fails('sendMessage', { chat_id: group.id, text: 'x' }, 403, 'Forbidden: bot was kicked from the supergroup chat');
    api.setMemberStatus(group.id, api.botUser.id, 'member');
    expect((await ok<Message.TextMessage>('sendMessage', { chat_id: group.id, text: 'back' })).text).toBe('back');
  });
});

describe('chat members with Telegraf', () => {
  it('lets a bot check who is an admin with ctx.getChatMember', async () => {
    const bot = new Telegraf(api.token, { telegram: { apiRoot: api.apiRoot } });
    bot.command('whoami', async (ctx) => {
      const me = await ctx.getChatMember(ctx.from.id);
      await ctx.reply(`${me.user.first_name}: ${me.status}`);
    });
    const running = bot.launch();
    stopBot = async () => {
      bot.stop('test over');
      await running;
    };
    const group = api.createGroup({ title: 'Sales' });
    api.setMemberStatus(group, ann, 'creator');
    api.sendText({ from: ann, chat: group, text: '/whoami' });
    expect((await api.nextBotMessage(group.id)).text).toBe('Ann: creator');
    api.sendText({ from: bob, chat: group, text: '/whoami@order_lookup_bot' });
    expect((await api.nextBotMessage(group.id)).text).toBe('Bob: member');
    await api.waitForIdle();
    expect(api.failedCalls()).toEqual([]);
  });
});
