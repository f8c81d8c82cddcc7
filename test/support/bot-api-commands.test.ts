import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BotCommand, User } from 'telegraf/types';
import { startBotApi } from './bot-api/index.ts';
import type { BotApi } from './bot-api/index.ts';
import { caller } from './bot-api-http.ts';

let api: BotApi;
let user: User;
const { call, ok, fails } = caller(() => api);

beforeEach(async () => {
  api = await startBotApi();
  user = api.createUser({ first_name: 'Ann' });
});

afterEach(async () => {
  await api.close();
});

const commands = (name: string): BotCommand[] => [{ command: name, description: `Does ${name}` }];
const scopeError = (detail: string) => `Bad Request: can't parse BotCommandScope: ${detail}`;

describe('command menus per scope and language', () => {
  it('keeps one list for each of the seven scope types and each language', async () => {
    const group = api.createGroup({ username: 'sales_team' });
    api.sendText({ from: user, chat: group, text: 'hello' });
    api.sendText({ from: user, text: 'hi' });
    const scopes = [
      { type: 'default' },
      { type: 'all_private_chats' },
      { type: 'all_group_chats' },
      { type: 'all_chat_administrators' },
      { type: 'chat', chat_id: group.id },
      { type: 'chat_administrators', chat_id: group.id },
      { type: 'chat_member', chat_id: group.id, user_id: user.id },
      { type: 'chat', chat_id: user.id },
    ];
    for (const [i, scope] of scopes.entries()) {
      expect(await ok('setMyCommands', { commands: commands(`c${i}`), scope })).toBe(true);
      expect(await ok('setMyCommands', { commands: commands(`ru${i}`), scope, language_code: 'ru' })).toBe(true);
    }
    for (const [i, scope] of scopes.entries()) {
      expect(api.commands({ scope })).toEqual(commands(`c${i}`));
      expect(api.commands({ scope, languageCode: 'ru' })).toEqual(commands(`ru${i}`));
      expect(api.commands({ scope, languageCode: 'de' })).toBeUndefined();
      expect(await ok('getMyCommands', { scope, language_code: 'ru' })).toEqual(commands(`ru${i}`));
    }
    expect(api.commands()).toEqual(commands('c0'));
    // the chat may be named by "@username" or a numeric string, in the request as in the lookup
    expect(await ok('getMyCommands', { scope: { type: 'chat', chat_id: '@sales_team' } })).toEqual(commands('c4'));
    expect(api.commands({ scope: { type: 'chat', chat_id: String(group.id) } })).toEqual(commands('c4'));
    expect(await ok('setMyCommands', { commands: commands('x'), scope: { type: 'chat_member', chat_id: '@sales_team', user_id: String(user.id) } })).toBe(true);
    expect(api.commands({ scope: { type: 'chat_member', chat_id: group.id, user_id: user.id } })).toEqual(commands('x'));
    expect(await ok('deleteMyCommands', { scope: { type: 'chat', chat_id: group.id }, language_code: 'ru' })).toBe(true);
    expect(api.commands({ scope: { type: 'chat', chat_id: group.id }, languageCode: 'ru' })).toBeUndefined();
    expect(api.commands({ scope: { type: 'chat', chat_id: group.id } })).toEqual(commands('c4'));
  });

  it('validates scopes and language codes as Telegram does', async () => {
    const group = api.createGroup();
    api.sendText({ from: user, chat: group, text: 'hello' });
    api.sendText({ from: user, text: 'hi' });
    const set = (scope: unknown, extra: Record<string, unknown> = {}) => ({ commands: commands('a'), scope, ...extra });
    await fails('setMyCommands', set({ type: 'everyone' }), 400, scopeError('Unsupported type specified'));
    await fails('setMyCommands', set(['default']), 400, scopeError('BotCommandScope must be an Object'));
    await fails('setMyCommands', set({ chat_id: group.id }), 400, scopeError('Can\'t find field "type"'));
    await fails('setMyCommands', set({ type: 'chat' }), 400, scopeError('Can\'t find field "chat_id"'));
    await fails('setMyCommands', set({ type: 'chat', chat_id: '' }), 400, scopeError('Empty chat_id specified'));
    await fails('setMyCommands', set({ type: 'chat_member', chat_id: group.id }), 400, scopeError('Can\'t find field "user_id"'));
    await fails('setMyCommands', set({ type: 'chat_member', chat_id: group.id, user_id: 0 }), 400, scopeError('Invalid user_id specified'));
    await fails('setMyCommands', set({ type: 'chat', chat_id: -42 }), 400, 'Bad Request: chat not found');
    await fails('setMyCommands', set({ type: 'chat_administrators', chat_id: user.id }), 400, "Bad Request: can't use specified scope in private chats");
    await fails('setMyCommands', set({ type: 'chat_member', chat_id: user.id, user_id: user.id }), 400, "Bad Request: can't use specified scope in private chats");
    const { body } = await call('setMyCommands', { commands: commands('a'), scope: '{"type":', language_code: 'en' }, { as: 'form' });
    expect(body).toMatchObject({ ok: false, description: "Bad Request: can't parse BotCommandScope JSON object" });
    for (const code of ['eng', 'EN', 'e1', 'r']) {
      await fails('setMyCommands', set({ type: 'default' }, { language_code: code }), 400, 'Bad Request: invalid language code specified');
    }
    await fails('getMyCommands', { scope: { type: 'everyone' } }, 400, scopeError('Unsupported type specified'));
    expect(() => api.commands({ scope: { type: 'everyone' } })).toThrow(/commands\(\): Bad Request: can't parse BotCommandScope/);
  });
});
