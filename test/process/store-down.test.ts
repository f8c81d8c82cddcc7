import { expect, it } from 'vitest';
import { useBotProcesses } from '../support/process-fixture.ts';
import { freshDatabase } from '../support/pg-database.ts';
import { createForwarder, freePort } from '../store/tcp-forwarder.ts';

// The bot's process with PostgreSQL that is down at start and goes away while it runs, through a
// TCP forwarder the test stops and starts: it waits, says so, and /readyz tells the truth.

const f = useBotProcesses();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const status = async (port: number, path: string) => (await fetch(`http://127.0.0.1:${port}${path}`)).status;
const until = async (check: () => Promise<boolean>, timeoutMs: number) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('the condition did not hold in time');
    await sleep(100);
  }
};

it('waits for a database that is down at start (alive, not ready), then serves; /readyz is 503 while it is gone again', async () => {
  const real = new URL(await freshDatabase());
  const forwarder = createForwarder(Number(real.port), await freePort());
  const url = new URL(real.href);
  url.port = String(forwarder.port);
  url.password = 'pa%ss';
  const bot = await f.start({ DATABASE_URL: url.href }, { waitUntilReceiving: false });
  await bot.waitForLog((line) => line.msg === 'the database does not answer: the store will try again', 10_000);
  expect(await status(bot.port, '/healthz')).toBe(200);
  expect(await status(bot.port, '/readyz')).toBe(503);
  expect(bot.stderr()).not.toContain('pa%ss');

  await forwarder.start();
  await bot.waitForLog((line) => line.msg === 'receiving updates', 20_000);
  const user = f.api.createUser({ language_code: 'en' });
  f.api.sendText({ from: user, text: '/order 0007300100' });
  expect((await f.api.nextBotMessage(user.id)).text).toContain('0007300100');
  await until(async () => (await status(bot.port, '/readyz')) === 200, 10_000);

  await forwarder.stop();
  await until(async () => (await status(bot.port, '/readyz')) === 503, 10_000);
  expect(await status(bot.port, '/healthz')).toBe(200);
  await bot.waitForLog((line) => line.msg === 'the store does not answer: /readyz says not ready until it does', 5_000);

  await forwarder.start();
  await until(async () => (await status(bot.port, '/readyz')) === 200, 15_000);
  f.api.sendText({ from: user, text: '/order 0007300151' });
  expect((await f.api.nextBotMessage(user.id)).text).toContain('0007300151');
  await forwarder.stop();
}, 60_000);
