import type { User } from '../../src/telegram/telegraf/core.ts';
import { describe, expect, it } from 'vitest';
import type { BotProcess } from '../support/bot-process.ts';
import { serveLargeOrders } from '../support/large-records.ts';
import { useBotProcesses } from '../support/process-fixture.ts';

// The bot as production starts it (its heap limit from the start command) against a portal whose
// pages are far under PORTAL_MAX_BODY_BYTES but whose records, all pages together, are more than
// the heap holds: exports are cut or refused and watches refused, each with a clear message, and
// the process lives on to answer the next lookup.

const f = useBotProcesses();

const start = (env: Record<string, string> = {}) => f.start({ LOG_LEVEL: 'info', ...env });

/** A document with a caption in `user`'s chat, once it has come (the export's progress message gone). */
const documentOf = async (user: User) => {
  const [document] = await f.api.waitFor(() => f.api.documentsIn(user.id).length > 0 && f.api.documentsIn(user.id), { timeoutMs: 15_000 });
  return document!;
};

/** The bot is alive and answers a lookup after it all. */
const expectAlive = async (bot: BotProcess) => {
  expect(bot.alive()).toBe(true);
  const user = f.api.createUser({ language_code: 'en' });
  f.api.sendText({ from: user, text: '/order 0007300100' });
  expect((await f.api.nextBotMessage(user.id, { timeoutMs: 10_000 })).text).toMatch(/^Order No\. \d{10} dated /);
  expect(bot.alive()).toBe(true);
};

/** "The file holds the first N of 1,000 …": the number of orders the file holds. */
const cutAt = (caption: string | undefined): number => {
  const match = /holds the first ([\d,]+) of 1,000: these records are so large that no more fit in the memory one export may take/.exec(caption ?? '');
  expect(match, caption).not.toBeNull();
  return Number(match![1]!.replace(/,/g, ''));
};

describe('memory: large records under every cap', () => {
  it('two exports at once of 1,000 orders with 500-character Cyrillic names are cut, each file saying so', async () => {
    const bot = await start();
    serveLargeOrders(f.portal, { status: 'big', count: 1000, nameLength: 500 });
    const users = [f.api.createUser({ language_code: 'en' }), f.api.createUser({ language_code: 'en' })];
    for (const user of users) f.api.sendText({ from: user, text: '/export order status big' });
    for (const user of users) {
      const shown = cutAt((await documentOf(user)).caption);
      expect(shown).toBeGreaterThanOrEqual(20);
      expect(shown).toBeLessThan(1000);
    }
    await expectAlive(bot);
    // The audit line of each export follows its file.
    const cut = () => bot.lines.filter((line) => line.msg === 'export' && line.cut === 'memory');
    await bot.waitForLog(() => cut().length === 2);
  });

  it('one export of 1,000 orders with 3,000-character names is cut, in Russian too', async () => {
    const bot = await start();
    serveLargeOrders(f.portal, { status: 'big', count: 1000, nameLength: 3000 });
    const user = f.api.createUser({ language_code: 'ru' });
    f.api.sendText({ from: user, text: '/export order status big' });
    const { caption } = await documentOf(user);
    expect(caption).toMatch(/В файле первые \d+ из 1\u00a0000: записи такие объёмные, что больше не помещается в память, отведённую на одну выгрузку/);
    await expectAlive(bot);
  });

  it('an export whose first page alone is more than an export may hold is refused, without a file', async () => {
    // Four exports at once share the exports' memory four ways (22.5 MB each at the start command's
    // 240 MB heap): 20 orders of 1,000 positions, each with a name and a material code of its own
    // (what the workbook keeps once each), 3.6 MB of answer, do not fit one share.
    const bot = await start({ EXPORT_CONCURRENCY: '4' });
    serveLargeOrders(f.portal, { status: 'huge', count: 100, nameLength: 20, positions: 1000 });
    const user = f.api.createUser({ language_code: 'en' });
    f.api.sendText({ from: user, text: '/export order status huge' });
    const refusal = await f.api.waitFor(() => f.api.messagesIn(user.id).find((message) => message.text.includes('too large')), { timeoutMs: 15_000 });
    expect(refusal.text).toBe('These records are too large: not even the first 20 fit in the memory one export may take. Narrow the search.\n\nThe export stopped; no file was sent.');
    expect(refusal.buttons).toEqual([]);
    expect(f.api.documentsIn(user.id)).toEqual([]);
    await expectAlive(bot);
  });

  it('EXPORT_CONCURRENCY=4: four exports at once of 1,000 orders with 200-character names are each cut', async () => {
    const bot = await start({ EXPORT_CONCURRENCY: '4' });
    serveLargeOrders(f.portal, { status: 'big', count: 1000, nameLength: 200 });
    const users = Array.from({ length: 4 }, () => f.api.createUser({ language_code: 'en' }));
    for (const user of users) f.api.sendText({ from: user, text: '/export order status big' });
    for (const user of users) expect(cutAt((await documentOf(user)).caption)).toBeLessThan(1000);
    await expectAlive(bot);
  });

  it('two watched queries of 1,000 records with 1,000-character names are refused at /watch', async () => {
    const bot = await start({ WATCH_MAX_RECORDS: '1000' });
    serveLargeOrders(f.portal, { status: 'big', count: 1000, nameLength: 1000 });
    serveLargeOrders(f.portal, { status: 'large', count: 1000, nameLength: 1000 });
    const user = f.api.createUser({ language_code: 'en' });
    for (const status of ['big', 'large']) {
      f.api.sendText({ from: user, text: `/watch order status ${status}` });
      expect((await f.api.nextBotMessage(user.id, { timeoutMs: 10_000 })).text).toBe(
        'The records of this query are too large to watch: checking them would take more memory than the bot sets aside for watches. Please narrow it: a contract or SAP no. rather than a material or a status, say.',
      );
    }
    f.api.sendText({ from: user, text: '/watch' });
    expect((await f.api.nextBotMessage(user.id)).text).toContain('Nothing is watched in this chat yet');
    await expectAlive(bot);
  });
});
