// The bot's update queue and getUpdates long polling, with Telegram's semantics: offset confirms
// everything before it, a newer getUpdates terminates a waiting one with 409, allowed_updates
// applies to updates created after it was set.
import type { Update } from 'telegraf/types';
import { conflict } from './errors.ts';
import type { ChangeFeed } from './feed.ts';

export type UpdateKind = 'message' | 'edited_message' | 'callback_query' | 'inline_query' | 'my_chat_member' | 'guest_message';

// the types Telegram sends when allowed_updates was never set, or set to []
const NOT_SENT_BY_DEFAULT = new Set(['chat_member', 'message_reaction', 'message_reaction_count']);

export const MAX_UPDATES_LIMIT = 100;

interface Queued {
  update: Update;
  delivered: boolean;
}

interface Waiter {
  limit: number;
  finish(updates: Update[]): void;
  fail(error: Error): void;
}

export interface PollOptions {
  offset: number | undefined;
  limit: number | undefined;
  timeoutSeconds: number | undefined;
  allowedUpdates: string[] | undefined;
}

export class UpdateQueue {
  private readonly feed: ChangeFeed;
  private nextUpdateId = 700_000_001;
  private queue: Queued[] = [];
  private allowed: Set<string> | undefined;
  private waiter: Waiter | undefined;
  /** updates that were not queued because allowed_updates excluded their type */
  readonly dropped: Update[] = [];

  constructor(feed: ChangeFeed) {
    this.feed = feed;
  }

  push(kind: UpdateKind, payload: unknown): Update {
    const update = { update_id: this.nextUpdateId++, [kind]: payload } as unknown as Update;
    if (this.allowed ? !this.allowed.has(kind) : NOT_SENT_BY_DEFAULT.has(kind)) {
      this.dropped.push(update);
    } else {
      this.queue.push({ update, delivered: false });
      const waiter = this.waiter;
      if (waiter) {
        this.waiter = undefined;
        waiter.finish(this.take(waiter.limit));
      }
    }
    this.feed.emit();
    return update;
  }

  poll(options: PollOptions, signal: AbortSignal): Promise<Update[]> {
    const previous = this.waiter;
    this.waiter = undefined;
    previous?.fail(conflict('terminated by other getUpdates request; make sure that only one bot instance is running'));
    this.confirm(options.offset ?? 0);
    if (options.allowedUpdates !== undefined) this.setAllowed(options.allowedUpdates);
    const limit = Math.min(Math.max(options.limit ?? MAX_UPDATES_LIMIT, 1), MAX_UPDATES_LIMIT);
    const ready = this.take(limit);
    const timeout = options.timeoutSeconds ?? 0;
    if (ready.length > 0 || timeout <= 0 || signal.aborted) {
      this.feed.emit();
      return Promise.resolve(ready);
    }
    return new Promise<Update[]>((resolve, reject) => {
      const cleanup = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (this.waiter === waiter) this.waiter = undefined;
      };
      const waiter: Waiter = {
        limit,
        finish: (updates) => {
          cleanup();
          resolve(updates);
        },
        fail: (error) => {
          cleanup();
          reject(error);
        },
      };
      const timer = setTimeout(() => waiter.finish([]), timeout * 1000);
      const onAbort = (): void => waiter.fail(new Error('getUpdates aborted by the client'));
      signal.addEventListener('abort', onAbort);
      this.waiter = waiter;
      this.feed.emit();
    });
  }

  /** Updates queued and not yet confirmed by a later offset (or, with a webhook, by a 2xx answer). */
  pending(): Update[] {
    return this.queue.map((q) => q.update);
  }

  /** As getUpdates and setWebhook set it: applies to updates created from now on; [] means the default. */
  setAllowed(types: readonly string[]): void {
    this.allowed = types.length === 0 ? undefined : new Set(types);
  }

  /** The update types set by allowed_updates, undefined while Telegram's default applies. */
  allowedTypes(): string[] | undefined {
    return this.allowed === undefined ? undefined : [...this.allowed];
  }

  /** A webhook post of the update is under way: it counts as fetched. */
  markDelivered(updateId: number): void {
    const queued = this.queue.find((q) => q.update.update_id === updateId);
    if (queued !== undefined) queued.delivered = true;
  }

  /** The webhook answered 2xx for the update: Telegram forgets it. */
  remove(updateId: number): void {
    this.queue = this.queue.filter((q) => q.update.update_id !== updateId);
    this.feed.emit();
  }

  /** Every queued update was handed out by some getUpdates (it may still be being handled). */
  allDelivered(): boolean {
    return this.queue.every((q) => q.delivered);
  }

  /** Every queued update was confirmed: the bot asked for the ones after it, so it is done with it. */
  allConfirmed(): boolean {
    return this.queue.length === 0;
  }

  isPolling(): boolean {
    return this.waiter !== undefined;
  }

  dropPending(): void {
    this.queue = [];
    this.feed.emit();
  }

  /** Answers a waiting long poll with no updates (used when the emulator shuts down). */
  release(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.finish([]);
  }

  private confirm(offset: number): void {
    if (offset > 0) this.queue = this.queue.filter((q) => q.update.update_id >= offset);
    else if (offset < 0) this.queue = this.queue.slice(offset);
  }

  private take(limit: number): Update[] {
    const batch = this.queue.slice(0, limit);
    for (const queued of batch) queued.delivered = true;
    return batch.map((q) => structuredClone(q.update));
  }
}
