import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { startBotApi, type BotApi } from './bot-api/index.ts';
import { killAll, spawnBot, type BotProcess, type SpawnOptions } from './bot-process.ts';
import { startTestPortal, type TestPortal } from './test-portal.ts';

// The set-up of the process tests: per test a strict Bot API emulator, the test portal and a
// data directory, and real bot processes started against them (killed after the test).

export type ProcessFixture = {
  api: BotApi;
  portal: TestPortal;
  dataDir: string;
  /** A bot process on this test's emulator and portal, with `env` on top; killed after the test. */
  start(env?: Record<string, string>, options?: Omit<SpawnOptions, 'env'>): Promise<BotProcess>;
};

/** Call at a file's top level; `apiOptions` is read in each test's set-up (it may use what an earlier hook made). */
export const useBotProcesses = ({ apiOptions = () => ({ waitTimeoutMs: 10_000 }) }: { apiOptions?: () => Parameters<typeof startBotApi>[0] } = {}) => {
  const bots: BotProcess[] = [];
  const fixture = {} as ProcessFixture;
  beforeEach(async () => {
    const api = await startBotApi(apiOptions());
    const portal = await startTestPortal();
    const dataDir = mkdtempSync(join(tmpdir(), 'bot-process-'));
    Object.assign(fixture, {
      api,
      portal,
      dataDir,
      start: async (env: Record<string, string> = {}, options: Omit<SpawnOptions, 'env'> = {}) => {
        const bot = await spawnBot({
          ...options,
          env: {
            BOT_TOKEN: api.token,
            TELEGRAM_API_ROOT: api.apiRoot,
            PORTAL_URL: portal.url,
            PORTAL_TOKEN: portal.token,
            ALLOW_ANYONE: 'true',
            DATA_DIR: dataDir,
            LOG_LEVEL: 'debug',
            ...env,
          },
        });
        bots.push(bot);
        return bot;
      },
    });
  });
  afterEach(async () => {
    await killAll(bots.splice(0));
    await fixture.portal.close();
    await fixture.api.close();
    rmSync(fixture.dataDir, { recursive: true, force: true });
  });
  return fixture;
};
