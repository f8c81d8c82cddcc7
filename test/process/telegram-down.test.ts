import { expect, it } from 'vitest';
import { useBotProcesses } from '../support/process-fixture.ts';
import { createForwarder, freePort } from '../store/tcp-forwarder.ts';

// Telegram unreachable at start: the bot retries getMe, and meanwhile its HTTP server says it is
// alive (the image's HEALTHCHECK must not call a retrying bot unhealthy) and not ready.

const f = useBotProcesses();

const get = async (port: number, path: string) => {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

it('serves /healthz (alive, starting) and /readyz (503) while Telegram does not answer getMe, then the real server', async () => {
  const forwarder = createForwarder(Number(new URL(f.api.apiRoot).port), await freePort());
  const bot = await f.start({ TELEGRAM_API_ROOT: `http://127.0.0.1:${forwarder.port}` }, { waitUntilReceiving: false });
  await bot.waitForLog((line) => line.msg === 'a Telegram call at start failed, retrying' && line.method === 'getMe', 10_000);
  expect(await get(bot.port, '/healthz')).toEqual({ status: 200, body: { status: 'starting' } });
  expect(await get(bot.port, '/readyz')).toEqual({ status: 503, body: { status: 'not ready', detail: { starting: true, store: 'sqlite', storeReachable: true } } });

  await forwarder.start();
  await bot.waitForLog((line) => line.msg === 'receiving updates', 20_000);
  expect(await get(bot.port, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
  const user = f.api.createUser({ language_code: 'en' });
  f.api.sendText({ from: user, text: '/order 0007300100' });
  expect((await f.api.nextBotMessage(user.id)).text).toContain('0007300100');
  await forwarder.stop();
}, 40_000);
