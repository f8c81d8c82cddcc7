import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BotMessage } from '../support/bot-api/index.ts';
import type { BotProcess } from '../support/bot-process.ts';
import { useBotProcesses } from '../support/process-fixture.ts';
import { freshDatabase } from '../support/pg-database.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/round-robin-proxy.ts';
import { sleep } from '../telegram/fixture.ts';

// Admins with two real bot processes receiving webhooks behind a round-robin proxy, on one
// PostgreSQL database: a grant made through one replica is in force on the other within a
// second, and two admins pressing Allow / Deny at once on the two replicas: one decision wins.

const PUBLIC_URL = 'https://bot.example.invalid';
const ANN = 950_001;
const BOB = 950_002;

let proxy: RoundRobinProxy;
beforeEach(async () => {
  proxy = await startRoundRobinProxy();
});
afterEach(() => proxy.close());
const f = useBotProcesses({
  apiOptions: () => ({ waitTimeoutMs: 10_000, webhookTarget: (url) => (url.startsWith(`${PUBLIC_URL}/`) ? `${proxy.url}${new URL(url).pathname}` : undefined) }),
});

const startReplicas = async () => {
  const url = await freshDatabase();
  const env = { DATABASE_URL: url, WEBHOOK_URL: PUBLIC_URL, SHUTDOWN_GRACE_MS: '3000', PORTAL_TIMEOUT_MS: '5000', ALLOW_ANYONE: 'false', ADMIN_USER_IDS: `${ANN},${BOB}`, DEFAULT_LANGUAGE: 'en' };
  const replicas = await Promise.all([f.start(env), f.start(env)]);
  proxy.setUpstreams(replicas.map(upstreamOf));
  return replicas;
};

const upstreamOf = (bot: BotProcess) => `http://127.0.0.1:${bot.port}`;

/** Which replicas served the requests made by `step`, from the proxy's counts. */
const servedBy = async <T>(replicas: BotProcess[], step: () => Promise<T>): Promise<{ result: T; by: BotProcess[] }> => {
  const before = proxy.served();
  const result = await step();
  await f.api.waitForIdle();
  const after = proxy.served();
  return { result, by: replicas.filter((bot) => (after[upstreamOf(bot)] ?? 0) > (before[upstreamOf(bot)] ?? 0)) };
};

const button = (message: BotMessage, text: string): string => {
  const found = message.buttons.find((candidate) => candidate.text === text);
  if (found === undefined || !('callback_data' in found)) throw new Error(`no "${text}" button in: ${JSON.stringify(message.buttons)}`);
  return found.callback_data;
};

const accessLines = (replicas: BotProcess[]) => replicas.flatMap((bot) => bot.lines.filter((line) => line.audit === true && String(line.msg).startsWith('access ')));

describe('admins with two webhook replicas on one database', () => {
  it('a grant through one replica is in force on the other within a second, and so is a removal', async () => {
    const replicas = await startReplicas();
    const ann = f.api.createUser({ id: ANN, language_code: 'en' });
    const stranger = f.api.createUser({ language_code: 'ru' });
    const allowed = await servedBy(replicas, async () => {
      f.api.sendText({ from: ann, text: `/allow ${stranger.id}` });
      return f.api.nextBotMessage(ann.id);
    });
    expect(allowed.result.text).toBe(`✅ ${stranger.id} can use the bot now.`);
    const grantedAt = performance.now();
    // The next update goes to the other replica (the proxy takes turns).
    const looked = await servedBy(replicas, async () => {
      f.api.sendText({ from: stranger, text: '/order 0007300100' });
      return f.api.nextBotMessage(stranger.id);
    });
    const tookMs = performance.now() - grantedAt;
    expect(looked.result.text).toContain('Заказ № 0007300');
    expect(looked.by).toHaveLength(1);
    expect(looked.by).not.toEqual(allowed.by);
    expect(tookMs).toBeLessThan(1_000);

    const denied = await servedBy(replicas, async () => {
      f.api.sendText({ from: ann, text: `/deny ${stranger.id}` });
      return f.api.nextBotMessage(ann.id);
    });
    expect(denied.result.text).toContain('can no longer use the bot');
    // The other replica hears of the removal through the database: within a second, as the README says.
    const deniedAt = performance.now();
    let refused = await servedBy(replicas, async () => {
      f.api.sendText({ from: stranger, text: '/order 0007300100' });
      return f.api.nextBotMessage(stranger.id);
    });
    while (!refused.result.text.includes('Нет доступа к боту') && performance.now() - deniedAt < 1_000) {
      await sleep(50);
      refused = await servedBy(replicas, async () => {
        f.api.sendText({ from: stranger, text: '/order 0007300100' });
        return f.api.nextBotMessage(stranger.id);
      });
    }
    expect(refused.result.text).toContain('Нет доступа к боту');
    console.info(`a grant through one replica answered on the other ${Math.round(tookMs)} ms later (lookup included)`);
  });

  it('two admins pressing Allow and Deny at once, on the two replicas: one decision wins, both copies say whose, the requester is told once', async () => {
    const replicas = await startReplicas();
    const ann = f.api.createUser({ id: ANN, first_name: 'Ann', language_code: 'en' });
    const bob = f.api.createUser({ id: BOB, first_name: 'Bob', language_code: 'en' });
    for (const admin of [ann, bob]) {
      f.api.sendText({ from: admin, text: '/start' });
      await f.api.nextBotMessage(admin.id);
    }
    const stranger = f.api.createUser({ first_name: 'Olga', language_code: 'en' });
    f.api.sendText({ from: stranger, text: '/order 1' });
    const refusal = await f.api.nextBotMessage(stranger.id);
    await f.api.waitForAnswer(f.api.pressButton({ from: stranger, message: refusal, data: button(refusal, 'Request access') }));
    const [toAnn, toBob] = [await f.api.nextBotMessage(ANN), await f.api.nextBotMessage(BOB)];

    const pressed = await servedBy(replicas, async () => {
      const ids = [
        f.api.pressButton({ from: ann, message: toAnn, data: button(toAnn, 'Allow') }),
        f.api.pressButton({ from: bob, message: toBob, data: button(toBob, 'Deny') }),
      ];
      return Promise.all(ids.map((id) => f.api.waitForAnswer(id)));
    });
    // The two presses were handled at once, one by each replica.
    expect(pressed.by).toHaveLength(2);
    const answers = pressed.result.map((answer) => answer.text);
    const annWon = answers[0] === 'Allowed';
    expect(answers).toEqual(annWon ? ['Allowed', 'Already decided by Ann: allowed.'] : ['Already decided by Bob: denied.', 'Denied']);
    const decided = annWon ? /\n\n✅ Allowed by Ann, \d\d:\d\d$/ : /\n\n❌ Denied by Bob, \d\d:\d\d$/;
    expect(f.api.message(ANN, toAnn.message_id)?.text).toMatch(decided);
    expect(f.api.message(BOB, toBob.message_id)?.text).toMatch(decided);
    const told = await f.api.nextBotMessage(stranger.id);
    expect(told.text).toBe(annWon ? '✅ Access granted: you can use the bot now. /help shows what it does.' : 'Your request for access to the bot was declined.');
    expect(f.api.messagesIn(stranger.id)).toHaveLength(2);
    const decisions = accessLines(replicas).filter((line) => line.reason === 'access request' || line.reason === 'already decided');
    expect(decisions.map((line) => [line.by, line.outcome, line.reason]).sort()).toEqual(
      annWon
        ? [
            [ANN, 'granted', 'access request'],
            [BOB, 'refused', 'already decided'],
          ]
        : [
            [ANN, 'refused', 'already decided'],
            [BOB, 'refused', 'access request'],
          ],
    );
    if (annWon) {
      f.api.sendText({ from: stranger, text: '/order 0007300100' });
      expect((await f.api.nextBotMessage(stranger.id)).text).toContain('Order No. 0007300');
    }
    // The one who lost edits the copies too (should the winner have died meanwhile): the same text again is no change.
    expect(f.api.failedCalls().filter((call) => call.response.ok || !/message is not modified/.test(call.response.description))).toEqual([]);
  });
});
