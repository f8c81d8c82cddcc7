import type { Logger } from 'pino';
import type { Readiness } from './http-server.ts';
import type { Store } from '../store/store.ts';

/** How often the store is asked whether it answers. */
const PING_EVERY_MS = 5_000;

/**
 * Whether the store answers, asked every few seconds off the path of updates: /readyz says "not
 * ready" while it does not, so a load balancer sends updates to a replica that can save them.
 * The log says when it went away and when it came back, once each.
 */
export const watchStoreHealth = ({ store, logger, everyMs = PING_EVERY_MS }: { store: Pick<Store, 'ping' | 'backend'>; logger: Logger; everyMs?: number }) => {
  let reachable = true;
  let since = Date.now();
  let running: Promise<void> | undefined;
  const check = () =>
    (running ??= store
      .ping()
      .then(
        () => {
          if (!reachable) logger.info({ store: store.backend, downForMs: Date.now() - since }, 'the store answers again');
          if (!reachable) since = Date.now();
          reachable = true;
        },
        (error: unknown) => {
          if (reachable) {
            logger.error({ err: error, store: store.backend }, 'the store does not answer: /readyz says not ready until it does');
            since = Date.now();
          }
          reachable = false;
        },
      )
      .finally(() => (running = undefined)));
  const timer = setInterval(() => void check(), everyMs).unref();
  return {
    check,
    readiness: (): Readiness => ({
      ready: reachable,
      detail: { store: store.backend, storeReachable: reachable, ...(reachable ? {} : { storeUnreachableSince: new Date(since).toISOString() }) },
    }),
    stop: () => clearInterval(timer),
  };
};

/** Ready when every part is: the details of all side by side. */
export const allReady = (...parts: Readiness[]): Readiness => ({
  ready: parts.every((part) => part.ready),
  detail: Object.assign({}, ...parts.map((part) => part.detail)) as Record<string, unknown>,
});
