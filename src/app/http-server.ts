import { createServer } from '../http/node-http.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Update } from '../telegram/telegraf/core.ts';
import { parseUpdate, type ParsedUpdate } from '../telegram/update-schema.ts';
import type { MetricsRegistry } from '../metrics/registry.ts';
import { readBody } from '../http/read-body.ts';
import { send, sendJson } from '../http/respond.ts';
import { secretMatcher } from '../http/secret.ts';

export const MAX_UPDATE_BYTES = 1024 * 1024;
export const SECRET_HEADER = 'x-telegram-bot-api-secret-token';
export const DEFAULT_GRACE_MS = 10_000;

export type Readiness = { ready: boolean; detail: Record<string, unknown> };

export type WebhookEndpoint = {
  /** The exact pathname Telegram posts to; the query string is ignored. */
  path: string;
  secretToken: string;
  /**
   * Settles when the update has been handled: Telegram is answered then (or after `answerWithinMs`),
   * so that it sends the chat's next update only after this one. A rejection is logged with the update id.
   */
  handleUpdate: (update: Update) => Promise<void>;
  /** The longest a post waits for its update to be handled before it is answered anyway. */
  answerWithinMs: number;
};

export type HttpServerOptions = {
  port: number;
  host?: string;
  logger: Logger;
  metrics: Pick<MetricsRegistry, 'render' | 'contentType'>;
  readiness: () => Readiness;
  webhook?: WebhookEndpoint;
  /**
   * The server that answers while the bot starts (awaiting the database or Telegram): /healthz
   * says alive with `"status":"starting"`, so that a proxy can tell it takes no updates yet.
   */
  starting?: boolean;
};

export type HttpServer = {
  port: number;
  /** Stops accepting, waits up to graceMs for running update handlers, then drops connections. */
  close(graceMs?: number): Promise<void>;
};

type Route = { methods: readonly string[]; handle: (req: IncomingMessage, res: ServerResponse) => void | Promise<void> };

const parseBody = (text: string): ParsedUpdate => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`the body is not JSON: ${(error as Error).name}`] };
  }
  return parseUpdate(value);
};

const settledWithin = (work: Promise<unknown>, ms: number): Promise<boolean> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void work.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });

/** Health, readiness and metrics endpoints, and the Telegram webhook when one is given. */
export const startHttpServer = async ({ port, host = '0.0.0.0', logger, metrics, readiness, webhook, starting = false }: HttpServerOptions): Promise<HttpServer> => {
  const inFlight = new Set<Promise<void>>();
  let closing = false;

  const readyz: Route['handle'] = (_req, res) => {
    let state: Readiness;
    try {
      state = readiness();
    } catch (error) {
      logger.error({ err: error }, 'the readiness check failed');
      state = { ready: false, detail: { error: 'the readiness check failed' } };
    }
    const ready = state.ready && !closing;
    const detail = closing ? { ...state.detail, shuttingDown: true } : state.detail;
    sendJson(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', detail });
  };

  const routes = new Map<string, Route>([
    ['/healthz', { methods: ['GET', 'HEAD'], handle: (_req, res) => sendJson(res, 200, { status: starting ? 'starting' : 'ok' }) }],
    ['/readyz', { methods: ['GET', 'HEAD'], handle: readyz }],
    [
      '/metrics',
      { methods: ['GET', 'HEAD'], handle: async (_req, res) => send(res, 200, await metrics.render(), { 'content-type': metrics.contentType }) },
    ],
  ]);

  if (webhook !== undefined) {
    if (!webhook.path.startsWith('/') || routes.has(webhook.path)) throw new Error(`http server: "${webhook.path}" cannot be the webhook path`);
    const secretMatches = secretMatcher(webhook.secretToken);
    const receive = async (req: IncomingMessage, res: ServerResponse) => {
      // Not handled here: Telegram retries, and the next instance gets it.
      if (closing) return sendJson(res, 503, { error: 'shutting down' }, { connection: 'close' });
      if (!secretMatches(req.headers[SECRET_HEADER])) {
        logger.warn({ remoteAddress: req.socket.remoteAddress }, 'webhook request without the right secret token');
        return sendJson(res, 401, { error: 'unauthorized' }, { connection: 'close' });
      }
      // Past the secret, only 200 will do: Telegram retries any other answer forever and holds the
      // updates after it back meanwhile. A body that is no update is dropped, logged without content.
      const body = await readBody(req, MAX_UPDATE_BYTES);
      if (body === undefined) {
        logger.warn({ limitBytes: MAX_UPDATE_BYTES }, 'dropped a webhook update over the size limit');
        return send(res, 200, '', { connection: 'close' });
      }
      const parsed = parseBody(body.toString('utf8'));
      if (!parsed.ok) {
        logger.warn({ problems: parsed.problems }, 'dropped a webhook body that is not an update');
        return send(res, 200, '');
      }
      const update = parsed.update;
      const handled = Promise.resolve()
        .then(() => webhook.handleUpdate(update))
        .catch((error: unknown) => logger.error({ err: error, updateId: update.update_id }, 'handling a webhook update failed'));
      // Answered once handled: Telegram holds the chat's next update until then, whichever replica gets it.
      const task = settledWithin(handled, webhook.answerWithinMs).then((inTime) => {
        if (!inTime) logger.warn({ updateId: update.update_id, answerWithinMs: webhook.answerWithinMs }, 'answered a webhook update still being handled');
        send(res, 200, '');
      });
      inFlight.add(task);
      await task.finally(() => inFlight.delete(task));
    };
    routes.set(webhook.path, { methods: ['POST'], handle: receive });
  }

  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, (req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
    const route = routes.get(path);
    if (route === undefined) return sendJson(res, 404, { error: 'not found' });
    if (!route.methods.includes(req.method ?? '')) return sendJson(res, 405, { error: 'method not allowed' }, { allow: route.methods.join(', ') });
    Promise.resolve()
      .then(() => route.handle(req, res))
      .catch((error: unknown) => {
        logger.error({ err: error, path }, 'an http request failed');
        if (res.headersSent) res.destroy();
        else sendJson(res, 500, { error: 'internal error' }, { connection: 'close' });
      });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => logger.error({ err: error }, 'the http server failed'));

  let closed: Promise<void> | undefined;
  const shutdown = async (graceMs: number) => {
    closing = true;
    const stopped = new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error))));
    server.closeIdleConnections();
    if (!(await settledWithin(Promise.allSettled([...inFlight]), graceMs))) {
      logger.warn({ running: inFlight.size, graceMs }, 'closing with update handlers still running');
    }
    server.closeAllConnections();
    await stopped;
  };

  return {
    port: (server.address() as AddressInfo).port,
    close: (graceMs = DEFAULT_GRACE_MS) => (closed ??= shutdown(graceMs)),
  };
};
