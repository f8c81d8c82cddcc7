import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

// The real bot with HANDLER_DEADLINE_SECONDS=1 and CONCURRENCY=1: a 429 storm must not hold a
// chat (or the one handler slot) past the deadline.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { HANDLER_DEADLINE_SECONDS: '1', CONCURRENCY: '1', PORTAL_TIMEOUT_MS: '2000' } });
});
afterAll(() => h.close());

describe('the handler deadline', () => {
  it('cuts a 429 wait of 30 s short at the deadline and answers the next update', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const other = h.api.createUser({ language_code: 'en' });
    h.api.failNext('sendMessage', { error_code: 429, retry_after: 30 }, { chatId: user.id });
    h.api.sendText({ from: user, text: '/order status production' });
    await h.api.waitForCall('sendMessage', { chatId: user.id });
    const startedAt = Date.now();
    const next = h.ask(other, '/order status production');
    expect((await next).text).toMatch(/^Orders 1–\d+ of \d+/);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(700);
    expect(Date.now() - startedAt).toBeLessThan(5000);
    expect(h.logs.filter((line) => line.msg === 'update passed its deadline: its Telegram calls are cancelled')).toHaveLength(1);
    expect((await h.ask(user, '/order 0007300100')).text).toMatch(/^Order No\. \d{10} dated /);
    // The abandoned update is a warning, not an error, and nobody is sent "something went wrong".
    expect(h.logs.filter((line) => line.msg === 'update abandoned at its deadline')).toHaveLength(1);
    expect(h.logs.filter((line) => line.level === 50 && line.updateId !== undefined)).toEqual([]);
    expect(h.api.messagesIn(user.id).map((message) => message.text).join('\n')).not.toContain('went wrong');
  });

  it('tells nobody, and logs a warning, when the portal fails after the deadline', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const before = h.logs.length;
    h.portal.fail('hang');
    try {
      h.api.sendText({ from: user, text: '/order 0007300100' });
      await h.settle();
    } finally {
      h.portal.fail(undefined);
    }
    const lines = h.logs.slice(before);
    expect(lines.filter((line) => line.msg === 'update abandoned at its deadline')).toHaveLength(1);
    expect(lines.filter((line) => line.level === 50)).toEqual([]);
    expect(h.api.messagesIn(user.id)).toEqual([]);
    expect((await h.ask(user, '/order 0007300100')).text).toMatch(/^Order No\. \d{10} dated /);
  });
});
