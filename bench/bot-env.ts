import type { LeanBotApi } from './bot-api.ts';
import { PORTAL_TOKEN } from './portal.ts';

/**
 * The environment every benchmarked bot starts from: its lean Bot API, the benchmark's portal,
 * anyone allowed, its own data directory and, when given, the port of /healthz and /metrics. A
 * scenario adds only what it measures.
 */
export const botEnv = (api: Pick<LeanBotApi, 'token' | 'apiRoot'>, portalUrl: string, dataDir: string, port?: number): Record<string, string> => ({
  BOT_TOKEN: api.token,
  TELEGRAM_API_ROOT: api.apiRoot,
  PORTAL_URL: portalUrl,
  PORTAL_TOKEN,
  ALLOW_ANYONE: 'true',
  DATA_DIR: dataDir,
  ...(port !== undefined && { PORT: String(port) }),
});
