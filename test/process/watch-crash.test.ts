import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/pg-database.ts';
import { useBotProcesses } from '../support/process-fixture.ts';

// A bot process killed (SIGKILL) while it sends notifications: the next process, on the same
// store, sends every one still pending within seconds of its start, each once. The killed one is
// caught with a send under way: in front of the emulator, a proxy that once told to hold never
// answers a sendMessage (nor passes it on). The test portal's demo clock moves order
// 0007300100's status every minute.

const MINUTE = 60_000;
const CHATS = 12;

const f = useBotProcesses({ apiOptions: () => ({ waitTimeoutMs: 15_000 }) });

/** The Bot API emulator behind a proxy that, once `hold` is set, leaves every sendMessage unanswered. */
const startHoldingProxy = async (upstream: string) => {
  let held = 0;
  const proxy = { hold: false, held: () => held, url: '', close: async () => {} };
  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse) => {
    const outgoing = request(new URL(req.url ?? '/', upstream), { method: req.method, headers: req.headers, agent: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    outgoing.on('error', () => res.destroy());
    outgoing.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (proxy.hold && /\/sendMessage$/i.test(req.url ?? '')) held += 1;
      else forward(req, Buffer.concat(chunks), res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return proxy;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (done: () => boolean, timeoutMs: number, what: string) => {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await sleep(50);
  }
};
const notifications = (chatId: number) =>
  f.api.messagesIn(chatId).filter((message) => message.text.startsWith('🔔') && !/^🔔 (Слежу за|Watching):/.test(message.text));

const backends: Array<[string, () => Promise<Record<string, string>>]> = [
  ['sqlite', async () => ({})],
  ['PostgreSQL', async () => ({ DATABASE_URL: await freshDatabase() })],
];

describe.each(backends)('notifications pending when the sending process is killed (%s)', (_name, storeEnv) => {
  it('are all sent by the next process within seconds of its start, each once', async () => {
    const env = { ...(await storeEnv()), WATCH_INTERVAL_SECONDS: '1', PORTAL_CACHE_SECONDS: '0' };
    const proxy = await startHoldingProxy(f.api.apiRoot);
    try {
      const first = await f.start({ ...env, TELEGRAM_API_ROOT: proxy.url });
      const users = Array.from({ length: CHATS }, () => f.api.createUser({ language_code: 'en' }));
      for (const user of users) {
        f.api.sendText({ from: user, text: '/watch 0007300100' });
        expect((await f.api.nextBotMessage(user.id)).text).toMatch(/^🔔 Watching:/);
      }
      // A change, told to every chat: the first process's first send never comes back.
      proxy.hold = true;
      f.portal.advanceDemoClock(MINUTE);
      await until(() => proxy.held() > 0, 15_000, 'the first process sent no notification');
      first.child.kill('SIGKILL');
      await first.exited;
      expect(users.flatMap((user) => notifications(user.id))).toEqual([]);

      await f.start(env);
      // At once those the killed process had not claimed; the few it held, once their short lease ran out.
      await until(() => users.every((user) => notifications(user.id).length > 0), 10_000, 'not every pending notification was sent');
      // Nobody hears it twice, a few more seconds on.
      await sleep(2_000);
      for (const user of users) expect(notifications(user.id)).toHaveLength(1);
      expect(notifications(users[0]!.id)[0]?.text).toContain('0007300100');
    } finally {
      await proxy.close();
    }
  }, 90_000);
});
