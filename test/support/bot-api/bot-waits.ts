// The wait helpers behind BotApi: each resolves on the state change it waits for, or fails after
// the timeout with the bot's recent calls in the message.
import type { ApiCall, CallLog } from './calls.ts';
import type { CallbackAnswer, EmulatorState, InlineAnswerRecord } from './state.ts';
import { toBotMessage } from './views.ts';
import type { BotMessage } from './views.ts';
import { waitUntil } from './waits.ts';
import type { WaitContext, WaitOptions } from './waits.ts';

export interface CallFilter {
  chatId?: number;
  /** the count-th matching call; default 1 */
  count?: number;
  where?: (call: ApiCall) => boolean;
}

export class BotWaits {
  private readonly state: EmulatorState;
  private readonly log: CallLog;
  private readonly context: WaitContext;
  /** per chat, the last message nextBotMessage returned */
  private readonly messageCursor = new Map<number, number>();
  /** per "chat:message", the edit_count last handed to the test */
  private readonly seenEdits = new Map<string, number>();

  constructor(state: EmulatorState, log: CallLog, context: WaitContext) {
    this.state = state;
    this.log = log;
    this.context = context;
  }

  waitFor<T>(probe: () => T | undefined | null | false, options: WaitOptions & { description?: string }) {
    return waitUntil(this.context, options.description ?? 'a condition', () => {
      const value = probe();
      return value === null || value === false ? undefined : (value as Exclude<T, undefined | null | false>);
    }, options);
  }

  waitForCall(method: string, options: WaitOptions & CallFilter): Promise<ApiCall> {
    const count = options.count ?? 1;
    const chat = options.chatId === undefined ? '' : ` to chat ${options.chatId}`;
    return waitUntil(this.context, `call #${count} of ${method}${chat}`, () => {
      const matching = this.log.calls.filter(
        (c) =>
          c.method === method &&
          (options.chatId === undefined || c.chatId === options.chatId) &&
          (options.where?.(c) ?? true),
      );
      return matching[count - 1];
    }, options);
  }

  nextBotMessage(chatId: number, options: WaitOptions & { after?: number }): Promise<BotMessage> {
    const after = options.after ?? this.messageCursor.get(chatId) ?? 0;
    return waitUntil(this.context, `a bot message in chat ${chatId} after message ${after}`, () => {
      const messages = this.state.chats.find(chatId)?.messages.values() ?? [];
      const stored = [...messages].find((m) => m.by_bot && m.message_id > after);
      if (stored === undefined) return undefined;
      this.messageCursor.set(chatId, Math.max(stored.message_id, this.messageCursor.get(chatId) ?? 0));
      this.seenEdits.set(`${chatId}:${stored.message_id}`, stored.edit_count);
      return toBotMessage(stored);
    }, options);
  }

  waitForEdit(chatId: number, messageId: number, options: WaitOptions & { count?: number }): Promise<BotMessage> {
    const key = `${chatId}:${messageId}`;
    const target = options.count ?? (this.seenEdits.get(key) ?? 0) + 1;
    return waitUntil(this.context, `edit #${target} of message ${messageId} in chat ${chatId}`, () => {
      const stored = this.state.chats.find(chatId)?.messages.get(messageId);
      if (stored === undefined || stored.edit_count < target) return undefined;
      this.seenEdits.set(key, stored.edit_count);
      return toBotMessage(stored);
    }, options);
  }

  waitForAnswer(callbackQueryId: string, options: WaitOptions): Promise<CallbackAnswer> {
    return waitUntil(this.context, `an answer to callback query ${callbackQueryId}`, () => {
      const answer = this.state.callbackQueries.get(callbackQueryId)?.answer;
      return answer === undefined ? undefined : structuredClone(answer);
    }, options);
  }

  waitForInlineAnswer(inlineQueryId: string, options: WaitOptions): Promise<InlineAnswerRecord> {
    return waitUntil(this.context, `an answer to inline query ${inlineQueryId}`, () => {
      const answer = this.state.inlineQueries.get(inlineQueryId)?.answer;
      return answer === undefined ? undefined : structuredClone(answer);
    }, options);
  }

  async waitForPolling(options: WaitOptions): Promise<void> {
    await waitUntil(this.context, 'the bot to long-poll getUpdates', () => (this.state.updates.isPolling() ? true : undefined), options);
  }

  async waitForIdle(options: WaitOptions): Promise<void> {
    await waitUntil(this.context, 'the bot to handle every queued update', () =>
      this.state.updates.allConfirmed() && this.log.inFlight === 0 ? true : undefined, options);
  }
}
