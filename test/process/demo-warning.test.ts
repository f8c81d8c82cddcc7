import { expect, it } from 'vitest';
import { useBotProcesses } from '../support/process-fixture.ts';

// A bot in Telegram with no PORTAL_URL: anyone may use it and it serves the demo portal's records.

const f = useBotProcesses();

const warnings = (lines: Record<string, unknown>[]) => lines.filter((line) => typeof line.msg === 'string' && line.msg.startsWith('BOT_TOKEN is set and PORTAL_URL is not'));

it('warns once at start that a bot in Telegram on the demo portal is open to anyone', async () => {
  const bot = await f.start({ PORTAL_URL: '', PORTAL_TOKEN: '', ALLOW_ANYONE: '' });
  const user = f.api.createUser({ language_code: 'en' });
  f.api.sendText({ from: user, text: '/order 0007300100' });
  expect((await f.api.nextBotMessage(user.id)).text).toContain('0007300100');
  expect(warnings(bot.lines)).toEqual([expect.objectContaining({ level: 40, portal: 'demo', access: 'anyone' })]);
  expect(warnings(bot.lines)[0]?.msg).toContain('anyone on Telegram may use this bot');
  // ...before the bot says it receives updates.
  expect(bot.lines.indexOf(warnings(bot.lines)[0]!)).toBeLessThan(bot.lines.findIndex((line) => line.msg === 'receiving updates'));
});

it('says nothing of the kind with a real portal', async () => {
  const bot = await f.start();
  expect(warnings(bot.lines)).toEqual([]);
});
