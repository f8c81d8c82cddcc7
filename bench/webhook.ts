import { Pool } from 'undici';
import type { Update } from './bot-api.ts';

// Telegram's side of a webhook in the benchmark: each update is POSTed as JSON with the secret
// header to the bot (or to the proxy in front of replicas), over at most `connections`
// keep-alive connections, as Telegram holds at most max_connections (40 by default, 100 at most)
// to one webhook. A post the bot does not answer 200 is counted: that update is lost to the load
// (its user waits for the time-out), so a non-zero count voids the run.

export const WEBHOOK_PATH = '/telegram/bench';
export const WEBHOOK_SECRET = 'bench-webhook-secret';
/** What the bot is told its public address is (WEBHOOK_URL): only its path matters here. */
export const WEBHOOK_URL = `https://bench.invalid${WEBHOOK_PATH}`;

export type WebhookPoster = {
  post(update: Update): void;
  /** Posts answered 200, and those answered otherwise or failed (by status, or the error's code). */
  counts(): { ok: number; failed: Map<string, number> };
  /** How long each post answered 200 since the last call took, from sending to the answer, in ms. */
  takeDurations(): number[];
  close(): Promise<void>;
};

export const startWebhookPoster = (origin: string, connections = 100): WebhookPoster => {
  const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
  let ok = 0;
  let durations: number[] = [];
  const failed = new Map<string, number>();
  const fail = (why: string) => failed.set(why, (failed.get(why) ?? 0) + 1);
  return {
    post(update) {
      const sent = performance.now();
      pool
        .request({
          path: WEBHOOK_PATH,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET },
          body: JSON.stringify(update),
        })
        .then(async ({ statusCode, body }) => {
          await body.dump();
          if (statusCode !== 200) return fail(String(statusCode));
          ok++;
          durations.push(performance.now() - sent);
        })
        .catch((error: unknown) => fail((error as { code?: string }).code ?? String(error)));
    },
    counts: () => ({ ok, failed: new Map(failed) }),
    takeDurations() {
      const taken = durations;
      durations = [];
      return taken;
    },
    close: () => pool.close(),
  };
};
