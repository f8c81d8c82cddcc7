import { pino } from 'pino';
import type { Update, UserFromGetMe } from '../../src/telegram/telegraf/core.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBot } from '../../src/bot/create-bot.ts';
import { createExports } from '../../src/export/exports.ts';
import { parseConfig } from '../../src/config.ts';
import type { BotDeps } from '../../src/bot/create-bot.ts';

const BOT_INFO: UserFromGetMe = {
  id: 42,
  is_bot: true,
  first_name: 'Orders',
  username: 'orders_bot',
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: true,
};

const update = {
  update_id: 1,
  message: { message_id: 1, date: 1_700_000_000, chat: { id: 7, type: 'private', first_name: 'Ann' }, from: { id: 7, is_bot: false, first_name: 'Ann' }, text: 'hello' },
} as unknown as Update;

afterEach(() => {
  vi.useRealTimers();
});

describe('createBot', () => {
  it('lets a handler run past Telegraf’s 90 s default: the runner’s deadline, not Telegraf, ends it', async () => {
    vi.useFakeTimers();
    const logs: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
    const config = parseConfig({ TELEGRAM_API_ROOT: 'http://127.0.0.1:9', PORTAL_URL: 'http://127.0.0.1:9', PORTAL_TOKEN: 'token', ALLOW_ANYONE: 'true' });
    // The update is held where the bot first waits: reading the user's settings.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const store = {
      settings: { user: async () => held.then(() => ({})), chatLocale: async () => undefined },
      queries: {},
    } as unknown as BotDeps['store'];
    const exports = createExports({ portal: {} as BotDeps['portal'], ...config.export, logger, now: () => new Date() });
    const bot = createBot({ token: '123456:ABCDEFGHIJKLMNOPQRSTUV', config, portal: {} as BotDeps['portal'], store, logger, demo: false, exports });
    bot.botInfo = BOT_INFO;

    let finished = false;
    const handling = bot.handleUpdate(update).then(() => (finished = true));
    await vi.advanceTimersByTimeAsync(120_000);
    expect(finished).toBe(false);
    expect(logs.filter((line) => (line.level as number) >= 50)).toEqual([]);

    release();
    vi.useRealTimers();
    await handling;
  });
});
