import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import { startHarness, type Harness } from '../support/harness.ts';

// Watches when the allowlists change between two runs of the bot on one store: a group's
// notifications reach everyone in it, so its own place on ALLOWED_CHAT_IDS decides, whoever made
// the watch; a private chat's, its user's place on ALLOWED_USER_IDS. The demo portal's clock
// moves order 0007300100's status every minute.

const MINUTE = 60_000;
const USER = 600_001;
const GROUP = -100_600_002;

let dataDir: string;
const runs: Harness[] = [];
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'bot-watch-access-'));
});
afterEach(async () => {
  for (const run of runs.splice(0)) await run.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The bot on the shared store with these lists; the previous run is stopped first. */
const run = async (lists: { users: number[]; chats: number[] }) => {
  for (const previous of runs.splice(0)) await previous.close();
  const h = await startHarness({
    env: { ALLOW_ANYONE: 'false', ALLOWED_USER_IDS: lists.users.join(','), ALLOWED_CHAT_IDS: lists.chats.join(','), WATCH_INTERVAL_SECONDS: '1' },
    openStore: () => openSqliteStore({ dataDir }),
  });
  runs.push(h);
  const user = h.api.createUser({ id: USER, language_code: 'en' });
  const group = h.api.createGroup({ id: GROUP, type: 'supergroup' });
  // Telegram knows both chats: a member wrote in the group (no command), the user started the bot.
  h.api.sendText({ from: h.api.createUser({ language_code: 'en' }), text: 'hello', chat: group });
  await h.ask(user, '/start');
  return { h, user, group };
};

/** A watch interval passes on the harness's clock: every watched query is due again; rounds of polls and sends, the sends of what they found too. */
const rounds = async (h: Harness) => {
  h.advance(1_000);
  await h.watches().runOnce();
  await h.watches().runOnce();
};
const notifications = (h: Harness, chatId: number) =>
  h.api.messagesIn(chatId).filter((message) => message.text.startsWith('🔔') && !message.text.startsWith('🔔 Watching:'));

describe('a group taken off ALLOWED_CHAT_IDS', () => {
  it('gets nothing more, though who made its watch is still allowed: its watches go, pending notifications too', async () => {
    const first = await run({ users: [USER], chats: [GROUP] });
    expect((await first.h.ask(first.user, '/watch 0007300100', first.group)).text).toMatch(/^🔔 Watching:/);
    expect((await first.h.ask(first.user, '/watch 0007300100')).text).toMatch(/^🔔 Watching:/);
    // A change is found; Telegram fails the group's notification, which stays pending.
    first.h.portal.advanceDemoClock(MINUTE);
    first.h.api.failNext('sendMessage', { error_code: 502 }, { chatId: GROUP });
    await rounds(first.h);
    expect(notifications(first.h, USER)).toHaveLength(1);
    expect(notifications(first.h, GROUP)).toEqual([]);

    // The group is taken off the list; the user who made its watch stays on theirs.
    const second = await run({ users: [USER], chats: [] });
    await rounds(second.h);
    await rounds(second.h);
    // The new portal's clock starts over: a change for both watches, told in the private chat only.
    expect(notifications(second.h, USER)).toHaveLength(1);
    expect(second.h.api.messagesIn(GROUP)).toEqual([]);
    // At its poll, or before, when its pending notification came first.
    expect(second.h.logs).toContainEqual(expect.objectContaining({ audit: true, chatId: GROUP, msg: expect.stringMatching(/^watch(es)? removed: the chat may no longer use the bot$/) }));

    // The user may still look things up there, but not watch: no 🔔, and /watch says why.
    const results = await second.h.ask(second.user, '/order 0007300100', second.group);
    expect(results.text).toMatch(/^Order No\. \d{10} dated /);
    expect(results.buttons.map((button) => button.text)).not.toContain('🔔 Watch');
    const refusal = await second.h.ask(second.user, '/watch 0007300100', second.group);
    expect(refusal.text).toContain('Watches are not available in this chat');
    expect(refusal.text).toContain(String(GROUP));
    expect((await second.h.ask(second.user, '/watch', second.group)).text).toContain('Nothing is watched in this chat yet');
  });
});

describe('a user taken off ALLOWED_USER_IDS', () => {
  it('loses the watches of their private chat, while the watch they made in a listed group goes on', async () => {
    const first = await run({ users: [USER], chats: [GROUP] });
    expect((await first.h.ask(first.user, '/watch 0007300100', first.group)).text).toMatch(/^🔔 Watching:/);
    expect((await first.h.ask(first.user, '/watch 0007300100')).text).toMatch(/^🔔 Watching:/);

    const second = await run({ users: [], chats: [GROUP] });
    second.h.portal.advanceDemoClock(MINUTE);
    await rounds(second.h);
    await rounds(second.h);
    expect(notifications(second.h, GROUP)).toHaveLength(1);
    expect(notifications(second.h, USER)).toEqual([]);
    expect(second.h.logs).toContainEqual(expect.objectContaining({ audit: true, chatId: USER, msg: 'watch removed: the chat may no longer use the bot' }));
  });
});
