import { randomBytes } from 'node:crypto';
import type { Telegram } from 'telegraf';
import type { Convenience } from 'telegraf/types';

/** Telegram's rule for secret_token: 1–256 characters of A-Z, a-z, 0-9, _ and -. */
export const SECRET_TOKEN = /^[A-Za-z0-9_-]{1,256}$/;

export type WebhookOptions = {
  telegram: Pick<Telegram, 'setWebhook'>;
  /** The public HTTPS address Telegram posts to; without a path, a random one is added. */
  url: string;
  /** Generated when absent. */
  secretToken?: string;
  /** Always sent, so a list left over from an earlier setWebhook never applies. */
  allowedUpdates: readonly Convenience.UpdateType[];
  /** How the setWebhook call is made, e.g. retried at start-up; once by default. */
  attempt?: <T>(method: string, call: () => Promise<T>) => Promise<T>;
};

export type Webhook = {
  /** The address given to Telegram, with the generated path if one was added. */
  url: string;
  secretToken: string;
  /** The pathname the local server must accept posts on. */
  path: string;
};

const randomToken = (bytes: number): string => randomBytes(bytes).toString('base64url');

/** A secret token for a webhook, as setupWebhook makes when none is given. */
export const generateSecretToken = (): string => randomToken(32);

/** Points Telegram at the webhook; pending updates are kept, so none is lost across a restart. */
export const setupWebhook = async ({
  telegram,
  url,
  secretToken = generateSecretToken(),
  allowedUpdates,
  attempt = (_method, call) => call(),
}: WebhookOptions): Promise<Webhook> => {
  if (!SECRET_TOKEN.test(secretToken)) throw new Error('webhook: the secret token must be 1-256 characters of A-Z, a-z, 0-9, _ and -');
  if (!URL.canParse(url)) throw new Error('webhook: the URL is not a valid absolute URL');
  const target = new URL(url);
  if (target.protocol !== 'https:') throw new Error('webhook: Telegram only posts to an https:// URL');
  // An unguessable path keeps scanners off the handler even before the secret is checked.
  if (target.pathname === '/') target.pathname = `/telegram/${randomToken(18)}`;
  await attempt('setWebhook', () =>
    telegram.setWebhook(target.href, {
      secret_token: secretToken,
      allowed_updates: allowedUpdates,
      drop_pending_updates: false,
    }),
  );
  return { url: target.href, secretToken, path: target.pathname };
};
