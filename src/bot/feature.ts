import { unwrapMiddleware, type CallbackQuery, type Chat, type InlineQuery, type Message, type Middleware, type MiddlewareFn, type MiddlewareObj, type User } from '../telegram/telegraf/core.ts';
import type { BotContext } from './context.ts';

// How the bot's middleware is put together. Telegraf's Composer runs each layer in an async
// function with a closure and two promises, nests a compose per `use`, and its `on` and `command`
// filters go through two promise hops each even when they do not match: an update crossed about
// 40 of them, a fifth of all the memory it allocated (BENCHMARKS.md, issue 14). Here a layer that
// does not match costs one synchronous check and a call of `next`.

/** A `/command` for this bot: the text after it is the payload, as Telegraf gives it. */
export type CommandContext = BotContext & { message: Message.TextMessage; chat: Chat; from: User; command: string; payload: string };
export type CallbackContext = BotContext & { callbackQuery: CallbackQuery };
export type MessageContext = BotContext & { message: Message; chat: Chat };
export type InlineQueryContext = BotContext & { inlineQuery: InlineQuery; from: User };

type Handler<C> = (ctx: C, next: () => Promise<void>) => Promise<unknown> | void;

/** Middleware run one after another, each given the next; the last one's `next` is the chain's own. */
export const chain = (...layers: ReadonlyArray<Middleware<BotContext>>): MiddlewareFn<BotContext> => {
  const run = layers.map((layer) => unwrapMiddleware(layer));
  if (run.length === 1) return run[0]!;
  return (ctx, next) => {
    // As Telegraf's compose: a layer that calls `next` twice would run the rest of the update twice.
    let reached = -1;
    const at = (index: number): Promise<void> => {
      if (index <= reached) return Promise.reject(new Error('next() called multiple times'));
      reached = index;
      const layer = run[index];
      if (layer === undefined) return next();
      // What a layer resolves to is never read: the chain only waits for it.
      return Promise.resolve(layer(ctx, () => at(index + 1))) as Promise<void>;
    };
    return at(0);
  };
};

/**
 * The command a message starts with, for this bot: Telegram marks it as the first entity at
 * offset 0; `/cmd@other_bot` is another bot's (usernames compare in any case). As Telegraf's
 * `command`, the name must match exactly and the payload is what follows it after one character.
 */
const commandOf = (ctx: BotContext): { command: string; payload: string } | undefined => {
  const message = ctx.message;
  if (message === undefined || !('text' in message)) return undefined;
  // Read once per message: every command layer of every feature asks.
  let found = commands.get(message);
  if (found === undefined) {
    found = readCommand(message, ctx.me) ?? null;
    commands.set(message, found);
  }
  return found ?? undefined;
};

const commands = new WeakMap<object, { command: string; payload: string } | null>();

const readCommand = (message: Message.TextMessage, me: string): { command: string; payload: string } | undefined => {
  const entity = message.entities?.[0];
  if (entity?.type !== 'bot_command' || entity.offset > 0) return undefined;
  const [name, to] = message.text.slice(0, entity.length).split('@');
  if (!name) return undefined;
  if (to && to.toLowerCase() !== me.toLowerCase()) return undefined;
  return { command: name.slice(1), payload: message.text.slice(entity.length + 1) };
};

/** What a feature registers, in the words of Telegraf's Composer; its middleware is one chain. */
export type Feature = MiddlewareObj<BotContext> & {
  use(...layers: Array<Middleware<BotContext>>): Feature;
  command(names: string | readonly string[], handler: Handler<CommandContext>): Feature;
  on(type: 'callback_query', handler: Handler<CallbackContext>): Feature;
  on(type: 'message', handler: Handler<MessageContext>): Feature;
  on(type: 'inline_query', handler: Handler<InlineQueryContext>): Feature;
};

/** A feature's layers, composed once when the bot takes them (`bot.use(feature)`). */
export const createFeature = (): Feature => {
  const layers: Array<Middleware<BotContext>> = [];
  let composed: MiddlewareFn<BotContext> | undefined;
  const add = (layer: MiddlewareFn<BotContext>) => {
    if (composed !== undefined) throw new Error('a feature cannot change once the bot runs it');
    layers.push(layer);
  };
  const feature: Feature = {
    use(...more) {
      for (const layer of more) add(unwrapMiddleware(layer));
      return feature;
    },
    command(names, handler) {
      const wanted = new Set(typeof names === 'string' ? [names] : names);
      add((ctx, next) => {
        const found = commandOf(ctx);
        if (found === undefined || !wanted.has(found.command)) return next();
        return handler(Object.assign(ctx, found) as CommandContext, next);
      });
      return feature;
    },
    on(type: 'callback_query' | 'message' | 'inline_query', handler: Handler<never>) {
      const present = type === 'callback_query' ? (ctx: BotContext) => ctx.callbackQuery !== undefined : type === 'message' ? (ctx: BotContext) => ctx.message !== undefined : (ctx: BotContext) => ctx.inlineQuery !== undefined;
      add((ctx, next) => (present(ctx) ? handler(ctx as never, next) : next()));
      return feature;
    },
    middleware() {
      composed ??= chain(...layers);
      return composed;
    },
  };
  return feature;
};
