// getMe, getUpdates, the webhook methods and the bot command menu methods.
import type { BotCommand } from 'telegraf/types';
import { badRequest, conflict, tooManyRequests } from './errors.ts';
import { isObject } from './method-context.ts';
import type { MethodContext, MethodHandler } from './method-context.ts';
import { readCommandScope } from './scopes.ts';
import type { CommandScope } from './scopes.ts';
import { commandsKey } from './state.ts';

export const MAX_COMMANDS = 100;

export const getMe: MethodHandler = ({ state }) => structuredClone(state.bot);

export const getUpdates: MethodHandler = ({ params, state, signal }) => {
  if (state.webhook !== undefined) {
    throw conflict("can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");
  }
  const allowed = params.json('allowed_updates', 'allowed updates');
  if (allowed !== undefined && (!Array.isArray(allowed) || allowed.some((t) => typeof t !== 'string'))) {
    throw badRequest("can't parse allowed updates JSON object");
  }
  return state.updates.poll(
    {
      offset: params.int('offset'),
      limit: params.int('limit'),
      timeoutSeconds: params.number('timeout'),
      allowedUpdates: allowed as string[] | undefined,
    },
    signal,
  );
};

/** Telegram's default max_connections, and its ceiling outside local mode. */
export const DEFAULT_MAX_CONNECTIONS = 40;
const MAX_MAX_CONNECTIONS = 100;
/** Telegram accepts one setWebhook with a URL per second per bot, identical ones included. */
const SET_WEBHOOK_INTERVAL_MS = 1000;

/** max_connections as Telegram reads it: clamped to 1–100, 40 when absent. */
export const maxConnectionsOf = (params: Record<string, unknown>): number => {
  const given = Number(params.max_connections ?? DEFAULT_MAX_CONNECTIONS);
  return Number.isFinite(given) ? Math.min(MAX_MAX_CONNECTIONS, Math.max(1, Math.trunc(given))) : DEFAULT_MAX_CONNECTIONS;
};

export const setWebhook: MethodHandler = (context) => {
  const { params, state } = context;
  const url = params.string('url') ?? '';
  // An empty URL removes the webhook: the same method in telegram-bot-api, without the rate limit.
  if (url === '') return deleteWebhook(context);
  // Checked before anything else, as telegram-bot-api does: a refused call still counts.
  const now = state.clock.nowMs();
  if (now < state.nextSetWebhookAtMs) throw tooManyRequests(1);
  state.nextSetWebhookAtMs = now + SET_WEBHOOK_INTERVAL_MS;
  if (!URL.canParse(url) || new URL(url).protocol !== 'https:') {
    throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
  }
  const secret = params.string('secret_token') ?? '';
  if (secret.length > 256) throw badRequest('secret token is too long');
  if (!/^[A-Za-z0-9_-]*$/.test(secret)) throw badRequest('secret token contains unallowed characters');
  const allowed = params.json('allowed_updates', 'allowed updates');
  if (allowed !== undefined && (!Array.isArray(allowed) || allowed.some((t) => typeof t !== 'string'))) {
    throw badRequest("can't parse allowed updates JSON object");
  }
  if (params.bool('drop_pending_updates')) state.updates.dropPending();
  if (allowed !== undefined) state.updates.setAllowed(allowed as string[]);
  state.webhook = { url, params: structuredClone(params.raw) };
  state.webhookError = undefined;
  state.feed.emit();
  return true;
};

export const deleteWebhook: MethodHandler = ({ params, state }) => {
  if (params.bool('drop_pending_updates')) state.updates.dropPending();
  state.webhook = undefined;
  state.webhookError = undefined;
  state.feed.emit();
  return true;
};

export const getWebhookInfo: MethodHandler = ({ state }) => {
  const hook = state.webhook;
  const allowed = state.updates.allowedTypes();
  return {
    url: hook?.url ?? '',
    has_custom_certificate: false,
    pending_update_count: state.updates.pending().length,
    ...(state.webhookError === undefined ? {} : { last_error_date: state.webhookError.date, last_error_message: state.webhookError.message }),
    ...(hook === undefined ? {} : { max_connections: maxConnectionsOf(hook.params) }),
    ...(allowed === undefined ? {} : { allowed_updates: allowed }),
  };
};

function readScope({ params, state }: MethodContext): CommandScope {
  return readCommandScope(params.json('scope', 'BotCommandScope'), state.chats);
}

function readLanguageCode({ params }: MethodContext): string {
  const code = params.string('language_code') ?? '';
  if (code !== '' && !/^[a-z]{2}$/.test(code)) throw badRequest('invalid language code specified');
  return code;
}

function readCommands({ params }: MethodContext): BotCommand[] {
  const commands = params.json('commands', 'BotCommand array');
  if (commands === undefined) throw badRequest('parameter "commands" is required');
  if (!Array.isArray(commands)) throw badRequest("can't parse BotCommand array JSON object");
  if (commands.length > MAX_COMMANDS) throw badRequest('BOT_COMMANDS_TOO_MUCH');
  return (commands as unknown[]).map((item) => {
    if (!isObject(item)) throw badRequest("can't parse BotCommand: BotCommand must be an Object");
    const { command, description, is_ephemeral: isEphemeral } = item;
    if (typeof command !== 'string') throw badRequest('can\'t parse BotCommand: Field "command" must be of type String');
    if (typeof description !== 'string') throw badRequest('can\'t parse BotCommand: Field "description" must be of type String');
    if (!/^[a-z0-9_]{1,32}$/.test(command)) throw badRequest('BOT_COMMAND_INVALID');
    if (description.trim().length < 1 || description.length > 256) throw badRequest('BOT_COMMAND_DESCRIPTION_INVALID');
    if (isEphemeral !== undefined && typeof isEphemeral !== 'boolean') throw badRequest('can\'t parse BotCommand: Field "is_ephemeral" must be of type Boolean');
    return isEphemeral === true ? ({ command, description, is_ephemeral: true } as BotCommand) : { command, description };
  });
}

export const setMyCommands: MethodHandler = (context) => {
  const commands = readCommands(context);
  const scope = readScope(context);
  const languageCode = readLanguageCode(context);
  const key = commandsKey(scope, languageCode);
  if (commands.length === 0) context.state.commands.delete(key);
  else context.state.commands.set(key, { scope, language_code: languageCode, commands });
  return true;
};

export const deleteMyCommands: MethodHandler = (context) => {
  context.state.commands.delete(commandsKey(readScope(context), readLanguageCode(context)));
  return true;
};

export const getMyCommands: MethodHandler = (context) =>
  structuredClone(context.state.commands.get(commandsKey(readScope(context), readLanguageCode(context)))?.commands ?? []);
