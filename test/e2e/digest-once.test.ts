import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/store.ts';
import type { User } from '../../src/telegram/telegraf/core.ts';
import { freshDatabase } from '../support/pg-database.ts';
import { HARNESS_START, startHarness, type Harness } from '../support/harness.ts';

// A digest is prepared and sent once per chat per day (issue 33): across a restart (a change
// found before the stop is in the digest sent after it; a digest missed by less than 6 hours is
// sent late, one missed by more is skipped and said in the next one), and with two replicas on
// PostgreSQL, both running their watch loops on the same clock at the digest's minute.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** 09:00 in Moscow on 24.11.2026. */
const NINE = Date.parse('2026-11-24T06:00:00Z');

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const runAt = async (harness: Harness, at: number) => {
  harness.clock.now = new Date(at);
  await harness.watches().runOnce();
  await harness.watches().runOnce();
};
const digests = (harness: Harness, chatId: number) => harness.api.messagesIn(chatId).filter((message) => /^🗓 (Сводка на|Digest for)/.test(message.text));

/** A user watching 0007300100 with a digest at 09:00 (or as `digest` says), at the harness's start. */
const subscriber = async (harness: Harness, languageCode: 'ru' | 'en', digest = '09:00'): Promise<User> => {
  harness.clock.now = HARNESS_START;
  const user = harness.api.createUser({ language_code: languageCode });
  await harness.ask(user, '/watch 0007300100');
  await harness.ask(user, `/digest ${digest}`);
  return user;
};
/** The demo's status moves once, found by a poll (told at once, and kept for the digests). */
const statusMoves = async (harness: Harness, run = (at: number) => runAt(harness, at)) => {
  await run(HARNESS_START.getTime() + 1_000);
  harness.portal.advanceDemoClock(MINUTE);
  await run(HARNESS_START.getTime() + 2_000);
  await run(HARNESS_START.getTime() + 3_000);
};
const withChange = async (harness: Harness, languageCode: 'ru' | 'en'): Promise<User> => {
  const user = await subscriber(harness, languageCode);
  await statusMoves(harness);
  return user;
};

describe('a digest across a restart', () => {
  it('Russian: the bot down at 09:00 and back at 11:00 sends it then, once, with the change found before the stop', async () => {
    h = await startHarness({ env: { WATCH_INTERVAL_SECONDS: '1' } });
    const user = await withChange(h, 'ru');
    await runAt(h, NINE - MINUTE);
    await h.down();
    h.clock.now = new Date(NINE + 2 * HOUR);
    await h.up();
    await runAt(h, NINE + 2 * HOUR);
    await runAt(h, NINE + 2 * HOUR + MINUTE);
    const sent = digests(h, user.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.text).toContain('Что изменилось с 23.11.2026 14:05');
    expect(sent[0]?.text).toContain('Заказ № 0007300100 от 18.11.2025: Статус: Производство → Отгружен');
    // A restart right after it sends nothing again.
    await h.restart();
    await runAt(h, NINE + 3 * HOUR);
    expect(digests(h, user.id)).toHaveLength(1);
  });

  it('English: back more than 6 hours late, the digest is skipped; the next day’s tells its changes and says so', async () => {
    h = await startHarness({ env: { WATCH_INTERVAL_SECONDS: '1' } });
    const user = await withChange(h, 'en');
    await h.down();
    h.clock.now = new Date(NINE + 7 * HOUR);
    await h.up();
    await runAt(h, NINE + 7 * HOUR);
    expect(digests(h, user.id)).toEqual([]);
    expect(h.logs).toContainEqual(expect.objectContaining({ chatId: user.id, msg: 'a digest was skipped: it was due more than 6 hours ago; the next one tells its changes' }));
    expect(await h.metrics.registry.render()).toMatch(/^orderbot_digests_total\{outcome="skipped"\} 1$/m);
    await runAt(h, NINE + 24 * HOUR);
    const [next, ...more] = digests(h, user.id);
    expect(more).toEqual([]);
    expect(next?.text.split('\n\n').slice(0, 4)).toEqual([
      '🗓 Digest for 25 Nov 2026',
      '⚠ The digest for 24 Nov 2026 was not sent in time; its changes are in this one.',
      'What changed since 23 Nov 2026, 14:05',
      'orders, SAP no. “0007300100”\n• Order No. 0007300100 dated 18 Nov 2025: Status: Производство → Отгружен',
    ]);
  });
});

describe('a digest with two replicas on PostgreSQL', () => {
  it('is sent once to each chat, whichever replica prepares it, in Russian and English', async () => {
    const url = await freshDatabase('digest');
    h = await startHarness({
      env: { WATCH_INTERVAL_SECONDS: '1' },
      openStore: () => openPostgresStore({ url, poolSize: 4, logger: pino({ level: 'silent' }) }),
    });
    const harness = h;
    const second = await harness.replica();
    const users = [await subscriber(harness, 'ru'), await subscriber(harness, 'en'), await subscriber(harness, 'ru', '09:00 quiet'), await subscriber(harness, 'en')];
    const both = async (at: number) => {
      harness.clock.now = new Date(at);
      await Promise.all([harness.watches().runOnce(), second.runOnce(), harness.watches().runOnce(), second.runOnce()]);
    };
    await statusMoves(harness, both);
    await both(NINE - 1_000);
    for (let step = 0; step < 5; step += 1) await both(NINE + step * 1_000);
    await both(NINE + HOUR);
    for (const user of users) expect(digests(harness, user.id)).toHaveLength(1);
    expect(digests(harness, users[0]!.id)[0]?.text).toMatch(/^🗓 Сводка на 24\.11\.2026\n\nЧто изменилось с 23\.11\.2026 14:05/);
    expect(digests(harness, users[1]!.id)[0]?.text).toMatch(/^🗓 Digest for 24 Nov 2026\n\nWhat changed since 23 Nov 2026, 14:05/);
    // Each change was found by one poll and told once to each chat, too.
    for (const user of users) expect(harness.api.messagesIn(user.id).filter((message) => /^🔔 (Изменения|Changes)/.test(message.text))).toHaveLength(1);
    expect(harness.logs.filter((line) => line.msg === 'digest prepared')).toHaveLength(4);
  });
});
