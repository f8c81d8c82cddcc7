import { describe, expect, it } from 'vitest';
import { createAccess } from '../../../src/access.ts';
import { accessMiddleware, PRIVATE_REFUSAL_QUIET_MS, REFUSAL_QUIET_MS } from '../../../src/bot/middleware/access.ts';
import { createMemoryLimits } from '../../../src/store/sqlite/limits.ts';
import type { LimitStore } from '../../../src/store/store.ts';
import { createChats, createClock, createLogs, unreachableLimits, type Update } from './access-flood-updates.ts';

const MEMBER = 10;
const GROUP = { id: -100, type: 'supergroup' } as const;
const OTHER_GROUP = { id: -200, type: 'group' } as const;
const lists = createAccess({ userIds: new Set([MEMBER]), chatIds: new Set(), anyone: false, adminIds: new Set() });

const setUp = (limits: LimitStore = createMemoryLimits(), clock = createClock()) => {
  const logs = createLogs();
  const chats = createChats();
  const access = accessMiddleware(lists, { limits, logger: logs.logger, now: clock.now });
  const refusals = (chatId: number) => chats.said.filter((said) => said.chatId === chatId && said.text.includes('not available in this chat'));
  return { clock, logs, chats, refusals, send: (update: Update) => chats.send([access], update) };
};

describe('accessMiddleware', () => {
  it('serves a listed user and refuses a stranger by id', async () => {
    const { chats, send } = setUp();
    await send({ from: MEMBER, text: '/order 1' });
    await send({ from: 777, text: '/order 1' });
    expect(chats.served()).toBe(1);
    expect(chats.said).toEqual([{ chatId: 777, text: expect.stringContaining('777') }]);
  });

  it('refuses a stranger once per group in the quiet period, and again after it', async () => {
    const { clock, chats, refusals, send } = setUp();
    for (let i = 0; i < 5; i += 1) await send({ from: 777, chat: GROUP, text: '/order 1' });
    await send({ from: 777, chat: OTHER_GROUP, text: '/order 1' });
    await send({ from: 778, chat: GROUP, text: '/order 1' });
    expect(refusals(GROUP.id).map((said) => said.text)).toEqual([expect.stringContaining('777'), expect.stringContaining('778')]);
    expect(refusals(OTHER_GROUP.id)).toHaveLength(1);

    clock.advance(REFUSAL_QUIET_MS - 1);
    await send({ from: 777, chat: GROUP, text: '/order 1' });
    expect(refusals(GROUP.id)).toHaveLength(2);
    clock.advance(1);
    await send({ from: 777, chat: GROUP, text: '/order 1' });
    expect(refusals(GROUP.id)).toHaveLength(3);
    expect(chats.served()).toBe(0);
  });

  it('refuses in a private chat again after half a minute', async () => {
    const { clock, chats, send } = setUp();
    await send({ from: 777, text: '/order 1' });
    await send({ from: 777, text: '/order 1' });
    expect(chats.said).toHaveLength(1);
    clock.advance(PRIVATE_REFUSAL_QUIET_MS);
    await send({ from: 777, text: '/order 1' });
    expect(chats.said).toHaveLength(2);
  });

  it('answers every press of a stranger with an alert, and ignores their plain messages', async () => {
    const { chats, send } = setUp();
    for (let i = 0; i < 3; i += 1) await send({ from: 777, chat: GROUP, press: true });
    await send({ from: 777, chat: GROUP, text: 'hello' });
    await send({ from: 777, chat: GROUP, text: '/order@other_bot 1' });
    expect(chats.answers).toEqual(Array.from({ length: 3 }, () => ({ text: expect.stringContaining('777'), alert: true })));
    expect(chats.said).toEqual([]);
  });

  it("refuses a stranger's pasted text in a private chat, and a mention of the bot in a group, as their commands are", async () => {
    const { chats, refusals, send } = setUp();
    await send({ from: 777, text: '0007300100' });
    expect(chats.said).toEqual([{ chatId: 777, text: expect.stringContaining('You have no access to this bot') }]);
    await send({ from: 777, chat: GROUP, text: '0007300100 ДП-77/2026', mention: true });
    expect(refusals(GROUP.id)).toEqual([{ chatId: GROUP.id, text: expect.stringContaining('777') }]);
    // Chatter read for /autolookup is never answered.
    await send({ from: 778, chat: GROUP, text: 'order 0007300100, please' });
    expect(refusals(GROUP.id)).toHaveLength(1);
    expect(chats.served()).toBe(0);
  });

  it('refuses a stranger once per group across replicas on one store', async () => {
    const limits = createMemoryLimits();
    const clock = createClock();
    const one = setUp(limits, clock);
    const two = setUp(limits, clock);
    await one.send({ from: 777, chat: GROUP, text: '/order 1' });
    await two.send({ from: 777, chat: GROUP, text: '/order 1' });
    expect(one.refusals(GROUP.id)).toHaveLength(1);
    expect(two.refusals(GROUP.id)).toEqual([]);
    clock.advance(REFUSAL_QUIET_MS);
    await two.send({ from: 777, chat: GROUP, text: '/order 1' });
    expect(two.refusals(GROUP.id)).toHaveLength(1);
  });
});

describe('accessMiddleware when the store does not answer', () => {
  it('says nothing to strangers (a spammed group is worse than silence), still serves members, and warns once a minute', async () => {
    const { clock, chats, logs, send } = setUp(unreachableLimits());
    for (let i = 0; i < 3; i += 1) await send({ from: 777, chat: GROUP, text: '/order 1' });
    await send({ from: 777, text: '/order 1' });
    await send({ from: MEMBER, text: '/order 1' });
    await send({ from: 777, chat: GROUP, press: true });
    expect(chats.said).toEqual([]);
    expect(chats.served()).toBe(1);
    expect(chats.answers).toHaveLength(1);
    expect(logs.warnings()).toEqual([expect.objectContaining({ msg: expect.stringContaining('refusal cooldown cannot reach the store') })]);
    clock.advance(60_000);
    await send({ from: 777, chat: GROUP, text: '/order 1' });
    expect(logs.warnings()).toHaveLength(2);
  });
});
