import { describe, expect, it } from 'vitest';
import { terminate, type BotProcess } from '../support/bot-process.ts';
import { useBotProcesses } from '../support/process-fixture.ts';
import { freshDatabase } from '../support/pg-database.ts';
import type { BotMessage } from '../support/bot-api/index.ts';
import { createForwarder, freePort } from '../store/tcp-forwarder.ts';

// Two real bot processes polling Telegram, on one PostgreSQL database: one polls, the other
// stands by, and takes over within the lease when the first is killed; while the database is
// down for both, the poller polls on and answers.

const LEASE_SECONDS = 3;

const f = useBotProcesses();

const startReplica = (databaseUrl: string) =>
  f.start({ DATABASE_URL: databaseUrl, LEADER_LEASE_SECONDS: String(LEASE_SECONDS), SHUTDOWN_GRACE_MS: '3000', PORTAL_TIMEOUT_MS: '5000' });

const leads = (bot: BotProcess) => bot.lines.some((line) => line.msg === 'took over polling');
/** getUpdates calls Telegram refused with 409 (not the emulator's record of a poll the bot aborted). */
const conflicts = () => f.api.callsTo('getUpdates').filter((call) => !call.response.ok && call.response.error_code === 409).length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (check: () => Promise<boolean>, timeoutMs: number) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('the condition did not hold in time');
    await sleep(100);
  }
};
const button = (message: BotMessage, text: string): string => {
  const found = message.buttons.find((candidate) => candidate.text === text);
  if (found === undefined || !('callback_data' in found)) throw new Error(`no "${text}" button in: ${JSON.stringify(message.buttons)}`);
  return found.callback_data;
};

describe('two polling replicas on one database', () => {
  it('poll from one only, answer each message once, and hand over within the lease after kill -9', async () => {
    const url = await freshDatabase();
    const [one, two] = await Promise.all([startReplica(url), startReplica(url)]);
    await f.api.waitForPolling();
    const leader = [one, two].find(leads)!;
    const standby = [one, two].find((bot) => bot !== leader)!;
    expect([one, two].filter(leads)).toEqual([leader]);
    // The standby called nothing but getMe: it never started polling.
    expect(standby.lines.some((line) => line.msg === 'polling started')).toBe(false);
    expect(standby.lines.filter((line) => line.msg === 'standing by: another replica polls')).toHaveLength(1);
    expect(standby.lines.find((line) => line.msg === 'receiving updates')).toMatchObject({ mode: 'polling', leading: false });

    const user = f.api.createUser({ language_code: 'en' });
    f.api.sendText({ from: user, text: '/order 0007300100' });
    expect((await f.api.nextBotMessage(user.id)).text).toMatch(/^Order No\. \d{10} dated /);
    await f.api.waitForIdle();
    expect(f.api.callsTo('sendRichMessage', { chatId: user.id })).toHaveLength(1);
    const metrics = async (bot: BotProcess) => (await fetch(`http://127.0.0.1:${bot.port}/metrics`)).text();
    expect(await metrics(leader)).toMatch(/^orderbot_polling_leader 1$/m);
    expect(await metrics(standby)).toMatch(/^orderbot_polling_leader 0$/m);

    const killedAt = performance.now();
    leader.child.kill('SIGKILL');
    await leader.exited;
    await standby.waitForLog((line) => line.msg === 'took over polling', (LEASE_SECONDS + 3) * 1000);
    const tookOverMs = performance.now() - killedAt;
    // Within LEADER_LEASE_SECONDS of the death (the lease is held 2/3 of it, tried for every 1/6).
    expect(tookOverMs).toBeLessThan(LEASE_SECONDS * 1000);
    f.api.sendText({ from: user, text: '/order 0007300117' });
    expect((await f.api.nextBotMessage(user.id)).text).toMatch(/^Order No\. \d{10} dated /);
    expect(await metrics(standby)).toMatch(/^orderbot_polling_leader 1$/m);
    // No 409 storm: a hand-over may cost one or two conflicts at most.
    expect(conflicts()).toBeLessThanOrEqual(2);

    expect((await terminate(standby)).code).toBe(0);
    console.info(`polling hand-over after kill -9: ${Math.round(tookOverMs)} ms (lease ${LEASE_SECONDS} s)`);
  });

  it('hand over at once when the leader stops with SIGTERM (the lease is given up)', async () => {
    const url = await freshDatabase();
    const one = await startReplica(url);
    const two = await startReplica(url);
    await f.api.waitForPolling();
    expect([leads(one), leads(two)]).toEqual([true, false]);
    const stoppedAt = performance.now();
    expect((await terminate(one)).code).toBe(0);
    await two.waitForLog((line) => line.msg === 'took over polling', 3000);
    expect(performance.now() - stoppedAt).toBeLessThan(LEASE_SECONDS * 1000);
    const user = f.api.createUser({ language_code: 'en' });
    f.api.sendText({ from: user, text: '/order 0007300100' });
    expect((await f.api.nextBotMessage(user.id)).text).toMatch(/^Order No\. \d{10} dated /);
    expect(conflicts()).toBe(0);
  });

  it('answer while the database is down for both: the poller polls on past its lease, in each user’s language; one polls once it is back', async () => {
    const real = new URL(await freshDatabase());
    const forwarder = createForwarder(Number(real.port), await freePort());
    await forwarder.start();
    const url = new URL(real.href);
    url.port = String(forwarder.port);
    const [one, two] = await Promise.all([startReplica(url.href), startReplica(url.href)]);
    await f.api.waitForPolling();
    const leader = [one, two].find(leads)!;
    const standby = [one, two].find((bot) => bot !== leader)!;
    const en = f.api.createUser({ language_code: 'en' });
    const ru = f.api.createUser({ language_code: 'ru' });
    f.api.sendText({ from: en, text: '/pagesize' });
    const sizes = await f.api.nextBotMessage(en.id);

    // PostgreSQL restarting, or crashed: connections cut and refused, for longer than the lease.
    await forwarder.stop();
    await sleep(LEASE_SECONDS * 1000);
    const askedAt = performance.now();
    f.api.sendText({ from: en, text: '/order 0007300100' });
    expect((await f.api.nextBotMessage(en.id)).text).toBe('The bot cannot save right now. Please try again later.');
    const answeredMs = performance.now() - askedAt;
    f.api.sendText({ from: ru, text: '/order 0007300100' });
    expect((await f.api.nextBotMessage(ru.id)).text).toBe('Бот сейчас не может сохранить данные. Попробуйте позже.');
    const pressed = f.api.pressButton({ from: en, message: sizes, data: button(sizes, '10') });
    expect(await f.api.waitForAnswer(pressed)).toMatchObject({ show_alert: true, text: 'The bot cannot save right now. Please try again later.' });
    expect(leader.lines.filter((line) => line.msg === 'could not renew the polling lease: polling goes on until another replica is seen to hold it')).toHaveLength(1);
    // The standby could not take the lease either: it never polled.
    expect(standby.lines.some((line) => line.msg === 'took over polling')).toBe(false);
    expect(conflicts()).toBe(0);

    await forwarder.start();
    await leader.waitForLog((line) => line.msg === 'renewed the polling lease again' || line.msg === 'lost the polling lease', 5_000);
    await Promise.all([one, two].map((bot) => until(async () => (await fetch(`http://127.0.0.1:${bot.port}/readyz`)).status === 200, 15_000)));
    f.api.sendText({ from: en, text: '/order 0007300117' });
    expect((await f.api.nextBotMessage(en.id)).text).toMatch(/^Order No\. \d{10} dated /);
    await f.api.waitForIdle();
    expect(f.api.messagesIn(en.id)).toHaveLength(3);
    // Back, the poller renewed its lease (or the standby, trying first, took it over): a conflict or two at most.
    expect(conflicts()).toBeLessThanOrEqual(2);
    await forwarder.stop();
    console.info(`answered ${LEASE_SECONDS} s into a database outage: ${Math.round(answeredMs)} ms`);
  }, 60_000);
});
