// Webhook delivery as telegram-bot-api's WebhookActor does it: queued updates are POSTed as JSON
// with the secret header; one update per queue in flight (a chat's messages, a user's button
// presses, a user's inline queries: Telegram's webhook queue ids), at most max_connections posts
// at once, the next of a queue only after a 2xx. Any other answer, a timeout or a refused
// connection is retried later (at once, then after 2, 4 … 60 s) and shown by getWebhookInfo.
import type { Update } from 'telegraf/types';
import { maxConnectionsOf } from './methods-bot.ts';
import type { EmulatorState, WebhookRecord } from './state.ts';

/** Where the posts for a webhook URL really go (a local address), or undefined: not delivered. */
export type WebhookTarget = (url: string) => string | undefined;

export interface WebhookDeliveryOptions {
  target: WebhookTarget | undefined;
  /** One second of Telegram's resend delays, in ms: 1000 is real time, less makes tests quick. */
  retryUnitMs: number;
  /** How long a post may go unanswered before it counts as failed (telegram-bot-api: 60 s idle). */
  timeoutMs: number;
}

export interface WebhookAttempt {
  update_id: number;
  /** the webhook queue the update belongs to, e.g. "chat:42" or "callback:42" */
  queue: string;
  /** the local address it was posted to */
  target: string;
  /** emulated ms when it was posted and answered (undefined while in flight) */
  started_ms: number;
  ended_ms: number | undefined;
  /** "ok" for a 2xx answer, else the error getWebhookInfo reports; undefined while in flight */
  outcome: string | undefined;
}

const MAX_RESEND_DELAY = 60;
const MAX_RETRY_AFTER = 3600;

const idOf = (value: unknown, field: string): number | undefined => {
  const inner = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[field] : undefined;
  const id = typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>).id : undefined;
  return typeof id === 'number' ? id : undefined;
};

/**
 * The queue telegram-bot-api files an update under (Client.cpp, add_update's webhook_queue_id):
 * messages by chat, callback and inline queries by the user who sent them, the bot's membership
 * by chat. Updates of one queue are posted one at a time, in order; different queues in parallel.
 */
export const webhookQueueOf = (update: Update): string => {
  const [kind, payload] = Object.entries(update).find(([name]) => name !== 'update_id') ?? ['', undefined];
  const chat = idOf(payload, 'chat');
  const from = idOf(payload, 'from');
  if (['message', 'edited_message', 'channel_post', 'edited_channel_post'].includes(kind) && chat !== undefined) return `chat:${chat}`;
  if (kind === 'callback_query' && from !== undefined) return `callback:${from}`;
  if (kind === 'inline_query' && from !== undefined) return `inline:${from}`;
  if (kind === 'chosen_inline_result' && from !== undefined) return `chosen:${from}`;
  if (kind === 'my_chat_member' && chat !== undefined) return `my_member:${chat}`;
  return `update:${update.update_id}`;
};

type Failure = { message: string; retryAfter: number };

const describeFailure = (error: unknown, timedOut: boolean): string => {
  if (timedOut) return 'Read timeout expired';
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  if (cause?.code === 'ECONNREFUSED') return 'Connection refused';
  return 'Webhook connection closed';
};

export class WebhookDelivery {
  readonly attempts: WebhookAttempt[] = [];
  private readonly state: EmulatorState;
  private readonly options: WebhookDeliveryOptions;
  /** queue → the post under way */
  private readonly busy = new Map<string, AbortController>();
  /** update_id → its failures so far, the current resend delay (s) and when it may go again */
  private readonly failures = new Map<number, { count: number; delay: number; retryAtMs: number }>();
  private readonly unsubscribe: () => void;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(state: EmulatorState, options: WebhookDeliveryOptions) {
    this.state = state;
    this.options = options;
    this.unsubscribe = state.feed.subscribe(() => this.pump());
  }

  setTarget(target: WebhookTarget | undefined): void {
    this.options.target = target;
    this.pump();
  }

  /** Posts under way now. */
  inFlight(): number {
    return this.busy.size;
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
    clearTimeout(this.timer);
    for (const post of this.busy.values()) post.abort();
  }

  private pump(): void {
    const hook = this.state.webhook;
    const target = hook === undefined ? undefined : this.options.target?.(hook.url);
    if (this.closed || hook === undefined || target === undefined) return;
    const limit = maxConnectionsOf(hook.params);
    const now = this.state.clock.nowMs();
    const heads = new Set<string>();
    let wakeAt = Infinity;
    for (const update of this.state.updates.pending()) {
      if (this.busy.size >= limit) break;
      const queue = webhookQueueOf(update);
      // Only the first pending update of a queue may go, and only when none of it is in flight.
      if (heads.has(queue)) continue;
      heads.add(queue);
      if (this.busy.has(queue)) continue;
      const retryAt = this.failures.get(update.update_id)?.retryAtMs ?? 0;
      if (retryAt > now) wakeAt = Math.min(wakeAt, retryAt);
      else this.post(update, queue, target, hook);
    }
    clearTimeout(this.timer);
    if (wakeAt !== Infinity) this.timer = setTimeout(() => this.pump(), wakeAt - now);
  }

  private post(update: Update, queue: string, target: string, hook: WebhookRecord): void {
    const abort = new AbortController();
    this.busy.set(queue, abort);
    this.state.updates.markDelivered(update.update_id);
    const attempt: WebhookAttempt = { update_id: update.update_id, queue, target, started_ms: this.state.clock.nowMs(), ended_ms: undefined, outcome: undefined };
    this.attempts.push(attempt);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, this.options.timeoutMs);
    const secret = typeof hook.params.secret_token === 'string' && hook.params.secret_token !== '' ? hook.params.secret_token : undefined;
    void fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(secret === undefined ? {} : { 'x-telegram-bot-api-secret-token': secret }) },
      body: JSON.stringify(update),
      signal: abort.signal,
    })
      .then(async (response): Promise<Failure | undefined> => {
        await response.arrayBuffer();
        if (response.ok) return undefined;
        const retryAfter = Number(response.headers.get('retry-after') ?? 0);
        return { message: `Wrong response from the webhook: ${response.status} ${response.statusText}`, retryAfter: Number.isFinite(retryAfter) ? retryAfter : 0 };
      })
      .catch((error: unknown): Failure => ({ message: describeFailure(error, timedOut), retryAfter: 0 }))
      .then((failure) => {
        clearTimeout(timer);
        this.busy.delete(queue);
        attempt.ended_ms = this.state.clock.nowMs();
        attempt.outcome = failure?.message ?? 'ok';
        if (this.closed) return;
        if (failure === undefined) {
          this.failures.delete(update.update_id);
          this.state.updates.remove(update.update_id);
        } else {
          this.failed(update.update_id, failure);
          this.state.feed.emit();
        }
      });
  }

  /** As WebhookActor::on_update_error: a Retry-After is obeyed; else at once, then doubling from 2 s to a minute. */
  private failed(updateId: number, { message, retryAfter }: Failure): void {
    const record = this.failures.get(updateId) ?? { count: 0, delay: 1, retryAtMs: 0 };
    let wait = Math.min(Math.max(retryAfter, 0), MAX_RETRY_AFTER);
    if (wait === 0 && record.count > 0) {
      record.delay = Math.min(MAX_RESEND_DELAY, record.delay * 2);
      wait = record.delay;
    }
    record.count++;
    record.retryAtMs = this.state.clock.nowMs() + wait * this.options.retryUnitMs;
    this.failures.set(updateId, record);
    this.state.webhookError = { date: this.state.clock.unix(), message };
  }
}
