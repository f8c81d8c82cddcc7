import { describe, expect, it } from 'vitest';
import { type BotProcess } from '../support/bot-process.ts';
import { useBotProcesses } from '../support/process-fixture.ts';
import { freshDatabase } from '../support/pg-database.ts';

// Watches with two real bot processes on one PostgreSQL database: both poll the watched queries
// and send notifications, each change is told once, and when one replica is killed the other
// goes on with every watch. The test portal's demo clock moves order 0007300100's status.

const MINUTE = 60_000;

const f = useBotProcesses({ apiOptions: () => ({ waitTimeoutMs: 15_000 }) });

const startReplica = (databaseUrl: string) =>
  f.start({
    DATABASE_URL: databaseUrl,
    LEADER_LEASE_SECONDS: '3',
    WATCH_INTERVAL_SECONDS: '1',
    // Short portal calls: a poll's lease (derived from them) ends soon after a replica dies.
    PORTAL_TIMEOUT_MS: '500',
    PORTAL_CACHE_SECONDS: '0',
    SHUTDOWN_GRACE_MS: '2000',
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const notifications = (chatId: number) =>
  f.api.messagesIn(chatId).filter((message) => message.text.startsWith('🔔') && !/^🔔 (Слежу за|Watching):/.test(message.text));
const eventually = async (done: () => boolean, timeoutMs = 15_000) => {
  const until = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > until) throw new Error('the expected notifications did not come');
    await sleep(100);
  }
};
const sentBy = (bot: BotProcess) => bot.lines.filter((line) => line.audit === true && line.msg === 'notification sent').length;

describe('watches with two replicas on one database', () => {
  it('tell each change once across replicas, and go on when one replica is killed', async () => {
    const url = await freshDatabase();
    const [one, two] = await Promise.all([startReplica(url), startReplica(url)]);
    const users = [f.api.createUser({ language_code: 'en' }), f.api.createUser({ language_code: 'ru' })];
    for (const user of users) {
      f.api.sendText({ from: user, text: '/watch 0007300100' });
      expect((await f.api.nextBotMessage(user.id)).text).toMatch(/^🔔 (Watching|Слежу за)/);
    }
    // Several intervals pass with nothing changed: nothing is told.
    await sleep(2_500);
    for (const user of users) expect(notifications(user.id)).toEqual([]);

    f.portal.advanceDemoClock(MINUTE);
    await eventually(() => users.every((user) => notifications(user.id).length > 0));
    // Both replicas poll every second: more intervals pass, and nobody hears it a second time.
    await sleep(3_000);
    for (const user of users) expect(notifications(user.id)).toHaveLength(1);
    expect(notifications(users[0]!.id)[0]?.text).toContain('0007300100');
    // The change was found by one poll of one replica, and its notifications sent once each.
    const found = (bot: BotProcess) => bot.lines.filter((line) => line.msg === 'watch found changes').length;
    expect(found(one) + found(two)).toBe(1);
    expect(sentBy(one) + sentBy(two)).toBe(2);

    // The replica that sent the notifications is killed; the other takes every watch over.
    const victim = sentBy(one) >= sentBy(two) ? one : two;
    const survivor = victim === one ? two : one;
    victim.child.kill('SIGKILL');
    await victim.exited;
    f.portal.advanceDemoClock(MINUTE);
    // Within a second or two; up to a poll's lease (69 s here) should the kill have landed mid-poll.
    await eventually(() => users.every((user) => notifications(user.id).length > 1), 100_000);
    await sleep(3_000);
    for (const user of users) expect(notifications(user.id)).toHaveLength(2);
    expect(survivor.alive()).toBe(true);

    // And it answers the chat: it took over polling Telegram too (within the 3 s lease).
    f.api.sendText({ from: users[0]!, text: '/watch' });
    expect((await f.api.nextBotMessage(users[0]!.id)).text).toContain('0007300100');
  }, 160_000);
});
