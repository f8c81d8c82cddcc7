import { bodyBudgetFor, createPortalClient, type PortalClient, type PortalClientOptions } from '../client.ts';
import { PortalHttpError } from '../errors.ts';
import { intercept, type OnEvent, type ResilienceLogger } from './intercept.ts';
import type { TokenSource } from './token-source.ts';

export type TokenRotationOptions = {
  tokens: TokenSource;
  /** Builds the client for one token; called again whenever the token changes. */
  createClient: (token: string) => PortalClient;
  logger?: ResilienceLogger;
  onEvent?: OnEvent;
};

/**
 * On HTTP 401 the token is read again and, if it changed, the call is sent once more with a client
 * for the new token. An unchanged token is not retried: the same request would be refused again.
 */
export const withTokenRotation = ({ tokens, createClient, logger, onEvent }: TokenRotationOptions): PortalClient => {
  let token = tokens.current();
  let client = createClient(token);
  const clientForCurrentToken = () => {
    const latest = tokens.current();
    if (latest !== token) {
      token = latest;
      client = createClient(latest);
    }
    return { client, token };
  };

  return intercept(async (call, send) => {
    const used = clientForCurrentToken();
    try {
      return await send(used.client);
    } catch (error) {
      if (!(error instanceof PortalHttpError) || error.status !== 401) throw error;
      let fresh: string;
      try {
        fresh = tokens.reload();
      } catch (reloadError) {
        logger?.warn({ err: reloadError, endpoint: call.endpoint }, 'portal answered 401 and the token could not be read again');
        throw error;
      }
      // Compared with the token this request used: a concurrent call may have reloaded already.
      if (fresh === used.token) throw error;
      logger?.info({ endpoint: call.endpoint }, 'portal answered 401; retrying with the reloaded token');
      onEvent?.({ type: 'tokenReload', endpoint: call.endpoint });
      return send(clientForCurrentToken().client);
    }
  });
};

export type PortalClientWithTokensOptions = Omit<PortalClientOptions, 'token'> & Omit<TokenRotationOptions, 'createClient'>;

/** createPortalClient, with the token taken from a TokenSource and reloaded on 401. */
export const createPortalClientWithTokens = ({ tokens, logger, onEvent, ...options }: PortalClientWithTokensOptions): PortalClient => {
  // One budget for the bytes read at once, whichever token's client reads them.
  const bodyBudget = options.bodyBudget ?? bodyBudgetFor(options.maxBodyBytes);
  return withTokenRotation({ tokens, logger, onEvent, createClient: (token) => createPortalClient({ ...options, bodyBudget, token, logger }) });
};
