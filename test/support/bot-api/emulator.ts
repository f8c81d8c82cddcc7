import type { BotCommand, Chat, Message, User, UserFromGetMe } from 'telegraf/types';
import { BotWaits } from './bot-waits.ts';
import type { CallFilter } from './bot-waits.ts';
import type { ApiCall, CallLog, FailureMatch, InjectedFailure } from './calls.ts';
import type { ChatActionRecord, EmulatedChat } from './chats.ts';
import type { Front, HeldCalls } from './front.ts';
import { BotApiError } from './errors.ts';
import type { MemberOptions, MemberStatus } from './members.ts';
import { readCommandScope } from './scopes.ts';
import type { HttpServer } from './server.ts';
import { newGroup, newUser, userPressesButton, userSendsPhoto, userSendsText } from './simulate.ts';
import type { NewGroupFields, PressButtonInput, SendPhotoInput, SendTextInput } from './simulate.ts';
import { userDeletesMessage } from './simulate-delete.ts';
import type { DeleteMessageInput } from './simulate-delete.ts';
import { userSendsInlineQuery } from './simulate-inline.ts';
import { userSummonsGuestBot } from './simulate-guest.ts';
import type { GuestMessageInput } from './simulate-guest.ts';
import type { SendInlineQueryInput } from './simulate-inline.ts';
import { changeBotMembership, hideMembers, setMember } from './simulate-members.ts';
import type { BotMembershipInput } from './simulate-members.ts';
import { commandsKey } from './state.ts';
import { ephemeralKey } from './chats.ts';
import type { CallbackAnswer, EmulatorState, GuestAnswerRecord, InlineAnswerRecord, InlineMessageRecord, WebhookRecord } from './state.ts';
import { toBotMessage, toSentDocument } from './views.ts';
import type { BotMessage, SentDocument } from './views.ts';
import type { WaitOptions } from './waits.ts';
import type { WebhookAttempt, WebhookDelivery, WebhookTarget } from './webhook-delivery.ts';
import type { BotApiVersion, IgnoredField } from './versions.ts';

/** An emulated api.telegram.org for one bot, plus the users around it. Create with startBotApi(). */
export class BotApi {
  readonly apiRoot: string;
  readonly token: string;
  readonly botUser: UserFromGetMe;
  private readonly state: EmulatorState;
  private readonly log: CallLog;
  private readonly server: HttpServer;
  private readonly delivery: WebhookDelivery;
  private readonly front: Front;
  private readonly waiting: BotWaits;
  private readonly cancels = new Set<(reason: Error) => void>();
  private nextUserId = 100_000_001;
  private nextGroupId = 1;
  private readonly ephemeralCursor = new Map<string, number>();

  constructor(state: EmulatorState, log: CallLog, server: HttpServer, delivery: WebhookDelivery, front: Front, waitTimeoutMs: number) {
    this.state = state;
    this.front = front;
    this.log = log;
    this.server = server;
    this.delivery = delivery;
    this.apiRoot = `http://127.0.0.1:${server.port}`;
    this.token = state.token;
    this.botUser = structuredClone(state.bot);
    this.waiting = new BotWaits(state, log, {
      feed: state.feed,
      timeoutMs: waitTimeoutMs,
      diagnostics: () => this.diagnostics(),
      track: (cancel) => {
        this.cancels.add(cancel);
        return () => this.cancels.delete(cancel);
      },
    });
  }

  // ── people and chats ────────────────────────────────────────────────────────

  /** A new user with a unique id; fields given override the generated ones. */
  createUser(fields: Partial<Omit<User, 'is_bot'>> = {}): User {
    const user = newUser(fields.id ?? this.nextUserId++, fields);
    this.state.chats.registerUser(user);
    return user;
  }

  /** A new group or supergroup (a forum when forum is true); registered once someone writes in it. */
  createGroup(fields: NewGroupFields = {}): Chat.GroupChat | Chat.SupergroupChat {
    return newGroup(this.nextGroupId++, fields);
  }

  /** A user writes; queues a `message` update with bot_command entities like Telegram's. */
  sendText(input: SendTextInput): Message.TextMessage {
    return userSendsText(this.state, input);
  }

  /** A user sends a photo with a caption (caption_entities like Telegram's); queued as a `message` update. */
  sendPhoto(input: SendPhotoInput): Message {
    return userSendsPhoto(this.state, input);
  }

  /**
   * BotFather's Group Privacy for this bot: on (the default), a group sends the bot only commands,
   * mentions of it and replies to its messages (unless the bot is an administrator there); off,
   * every message. getMe's can_read_all_group_messages says which from now on.
   */
  setPrivacyMode(on: boolean): void {
    this.state.bot.can_read_all_group_messages = !on;
  }

  /** A user presses an inline button; queues a `callback_query` update and returns its id. */
  pressButton(input: PressButtonInput): string {
    return userPressesButton(this.state, input);
  }

  /** A user deletes a message (anything in their private chat; in a group their own, or as an admin who may). */
  deleteMessage(input: DeleteMessageInput): void {
    userDeletesMessage(this.state, input);
  }

  /** A user types "@bot query": queues an `inline_query` update and returns its id (answer within 10 s). */
  sendInlineQuery(input: SendInlineQueryInput): string {
    return userSendsInlineQuery(this.state, input);
  }

  /**
   * A user mentions the bot in a chat it is not in (guest mode): queues a `guest_message` update and
   * returns its guest_query_id; undefined when Telegram would send nothing (a server older than
   * 10.0, or guest mode off in @BotFather: setGuestMode).
   */
  sendGuestMessage(input: GuestMessageInput): string | undefined {
    return userSummonsGuestBot(this.state, input);
  }

  /** @BotFather's guest mode for this bot (getMe's supports_guest_queries, on a server of 10.0 or newer). */
  setGuestMode(on: boolean): void {
    if ('supports_guest_queries' in this.state.bot) Object.assign(this.state.bot, { supports_guest_queries: on });
  }

  /**
   * A user's status in a group, as getChatMember and getChatAdministrators report it. Users who
   * write in a group become members by themselves; the bot is a member unless set otherwise
   * (an administrator may delete others' messages). A chat object registers a group nobody wrote in yet.
   */
  setMemberStatus(chat: number | EmulatedChat, user: number | User, status: MemberStatus, options: MemberOptions = {}): void {
    setMember(this.state, chat, user, status, options);
  }

  /** A member adds the bot to a group: its status there becomes `status` (member) and a `my_chat_member` update is queued. */
  addBotToGroup(input: BotMembershipInput): void {
    changeBotMembership(this.state, input, true);
  }

  /** A member removes the bot from a group (left, or kicked: banned): sends there fail with 403; a `my_chat_member` update is queued. */
  removeBotFromGroup(input: BotMembershipInput): void {
    changeBotMembership(this.state, input, false);
  }

  /** A supergroup hides its members (or shows them again): a bot that is not an admin may then not ask who is who. */
  hideMembers(chat: number | EmulatedChat, hidden = true): void {
    hideMembers(this.state, chat, hidden);
  }

  /** The user blocks (or unblocks) the bot: sends to their private chat then fail with 403. */
  blockBot(userId: number, blocked = true): void {
    const record = this.state.chats.find(userId);
    if (record === undefined) throw new Error(`bot API emulator: no chat with user ${userId} yet`);
    record.botBlocked = blocked;
  }

  /** Moves emulated time on (message dates, the 15 s callback and 10 s inline answer windows). */
  advanceTime(seconds: number): void {
    this.state.clock.advance(seconds);
    this.state.feed.emit();
  }

  // ── what the bot did ────────────────────────────────────────────────────────

  /** Every request the bot made, in arrival order. */
  get calls(): readonly ApiCall[] {
    return this.log.calls;
  }

  callsTo(method: string, filter: { chatId?: number } = {}): ApiCall[] {
    return this.log.calls.filter((c) => c.method === method && (filter.chatId === undefined || c.chatId === filter.chatId));
  }

  /**
   * Fields of the bot's requests that the server ignored, being older than they are (startBotApi's
   * botApiVersion): a test fails on them where the bot should have known better.
   */
  ignoredFields(): IgnoredField[] {
    return this.log.calls.flatMap((call) => call.ignored.map(({ field, since }) => ({ seq: call.seq, method: call.method, field, since })));
  }

  /** The Bot API version this server plays. */
  get botApiVersion(): BotApiVersion {
    return this.state.options.botApiVersion;
  }

  /** Calls Telegram refused, except the ones a test injected with failNext. */
  failedCalls(): ApiCall[] {
    return this.log.calls.filter((c) => !c.response.ok && !c.injected && !c.aborted);
  }

  chat(chatId: number): EmulatedChat | undefined {
    const chat = this.state.chats.find(chatId)?.chat;
    return chat === undefined ? undefined : structuredClone(chat);
  }

  /** The bot's messages in a chat as they stand now (after edits), oldest first. */
  messagesIn(chatId: number, options: { includeDeleted?: boolean } = {}): BotMessage[] {
    const record = this.state.chats.find(chatId);
    return [...(record?.messages.values() ?? [])]
      .filter((m) => m.by_bot && (options.includeDeleted === true || !m.deleted))
      .map(toBotMessage);
  }

  /** The documents the bot sent to a chat (not deleted), oldest first, with their bytes. */
  documentsIn(chatId: number): SentDocument[] {
    return this.messagesIn(chatId).flatMap((message) => (message.document === undefined ? [] : [toSentDocument(message, message.document)]));
  }

  message(chatId: number, messageId: number): BotMessage | undefined {
    const stored = this.state.chats.find(chatId)?.messages.get(messageId);
    return stored === undefined ? undefined : toBotMessage(stored);
  }

  /**
   * The bot's ephemeral messages that `userId` sees in a chat (theirs alone: nobody else's), as they
   * stand now, oldest first; deleted and expired ones only with includeDeleted.
   */
  ephemeralMessages(chatId: number, userId: number, options: { includeDeleted?: boolean } = {}): BotMessage[] {
    const record = this.state.chats.find(chatId);
    return [...(record?.ephemerals.values() ?? [])]
      .filter((m) => m.by_bot && m.ephemeral?.receiver_user_id === userId && (options.includeDeleted === true || !m.deleted))
      .map(toBotMessage);
  }

  /** One ephemeral message of the bot, by the (chat, receiver, ephemeral id) triple. */
  ephemeralMessage(chatId: number, userId: number, ephemeralId: number): BotMessage | undefined {
    const stored = this.state.chats.find(chatId)?.ephemerals.get(ephemeralKey(userId, ephemeralId));
    return stored?.by_bot === true ? toBotMessage(stored) : undefined;
  }

  /** The next ephemeral message of the bot for `userId` in the chat, after ephemeral id `after` (default: the last one this returned). */
  async nextEphemeralMessage(chatId: number, userId: number, options: WaitOptions & { after?: number } = {}): Promise<BotMessage> {
    const key = `${chatId}:${userId}`;
    const after = options.after ?? this.ephemeralCursor.get(key) ?? 0;
    const found = await this.waiting.waitFor(
      () => this.ephemeralMessages(chatId, userId, { includeDeleted: true }).find((m) => (m.ephemeral_message_id ?? 0) > after),
      { ...options, description: `an ephemeral message for user ${userId} in chat ${chatId} after ${after}` },
    );
    this.ephemeralCursor.set(key, found.ephemeral_message_id ?? 0);
    return found;
  }

  /** An ephemeral message goes away on the user's client ("they may disappear automatically"): the server no longer knows its id. */
  expireEphemeral(chatId: number, userId: number, ephemeralId: number): void {
    const stored = this.state.chats.find(chatId)?.ephemerals.get(ephemeralKey(userId, ephemeralId));
    if (stored === undefined) throw new Error(`bot API emulator: no ephemeral message ${ephemeralId} for user ${userId} in chat ${chatId}`);
    stored.deleted = true;
    this.state.feed.emit();
  }

  chatActions(chatId: number): ChatActionRecord[] {
    return structuredClone(this.state.chats.find(chatId)?.actions ?? []);
  }

  /** How the bot answered a callback query, or undefined while it has not. */
  callbackAnswer(callbackQueryId: string): CallbackAnswer | undefined {
    const answer = this.state.callbackQueries.get(callbackQueryId)?.answer;
    return answer === undefined ? undefined : structuredClone(answer);
  }

  /**
   * The command menu set for a scope and language (default scope, no language when omitted). The
   * scope is read as setMyCommands reads it: chat_id may be a number, a numeric string or "@username".
   */
  commands(options: { scope?: Record<string, unknown>; languageCode?: string } = {}): BotCommand[] | undefined {
    let scope;
    try {
      scope = readCommandScope(options.scope, this.state.chats);
    } catch (error) {
      if (error instanceof BotApiError) throw new Error(`bot API emulator: commands(): ${error.description}`);
      throw error;
    }
    return structuredClone(this.state.commands.get(commandsKey(scope, options.languageCode ?? ''))?.commands);
  }

  get webhook(): WebhookRecord | undefined {
    return structuredClone(this.state.webhook);
  }

  /** Every webhook post so far, in the order they started: outcome "ok", an error, or undefined while in flight. */
  get webhookAttempts(): WebhookAttempt[] {
    return structuredClone(this.delivery.attempts);
  }

  /** setWebhook calls Telegram accepted (refused ones, e.g. a 429, are in callsTo('setWebhook') too). */
  webhookSets(): number {
    return this.log.calls.filter((c) => c.method === 'setWebhook' && c.response.ok && !c.injected).length;
  }

  /** Where webhook posts go from now on (see StartBotApiOptions.webhookTarget); undefined stops posting. */
  setWebhookTarget(target: WebhookTarget | undefined): void {
    this.delivery.setTarget(target);
  }

  /** Every accepted answerInlineQuery, in order. */
  get inlineAnswers(): InlineAnswerRecord[] {
    return structuredClone(this.state.inlineAnswers);
  }

  /** How the bot answered an inline query, or undefined while it has not. */
  inlineAnswer(inlineQueryId: string): InlineAnswerRecord | undefined {
    const answer = this.state.inlineQueries.get(inlineQueryId)?.answer;
    return answer === undefined ? undefined : structuredClone(answer);
  }

  /** How the bot answered a guest query, or undefined while it has not. */
  guestAnswer(guestQueryId: string): GuestAnswerRecord | undefined {
    return structuredClone(this.state.guestQueries.get(guestQueryId)?.answer);
  }

  /** A message the bot sent with answerGuestQuery, as it stands now (after edits). */
  inlineMessage(inlineMessageId: string): InlineMessageRecord | undefined {
    return structuredClone(this.state.inlineMessages.get(inlineMessageId));
  }

  /** Every queued update has been fetched by getUpdates. */
  updatesConsumed(): boolean {
    return this.state.updates.allDelivered();
  }

  // ── failures ────────────────────────────────────────────────────────────────

  /** The next call(s) of `method` fail with this error, before any validation, as Telegram would answer it. */
  failNext(method: string, failure: InjectedFailure, match?: FailureMatch): void {
    this.log.addFailure(method, failure, match);
  }

  /**
   * The next `times` calls of `method` (default 1) get no answer, their bodies unread, until
   * `release()`: a Bot API that takes an upload and never answers it. A call the bot gives up on
   * is recorded as aborted.
   */
  holdNext(method: string, { times = 1 }: { times?: number } = {}): HeldCalls {
    return this.front.hold(method, times);
  }

  /**
   * A proxy in front of the Bot API with a body limit (nginx's client_max_body_size): a request
   * declaring a longer body gets 413 and nginx's HTML page before any method sees it (recorded as
   * injected). undefined lifts the limit.
   */
  limitBodies(bytes: number | undefined): void {
    this.front.bodyLimit = bytes;
  }

  // ── waiting (no sleeps: each resolves on the state change it waits for) ─────

  /** Resolves with the probe's first value other than undefined, null or false. */
  waitFor<T>(probe: () => T | undefined | null | false, options: WaitOptions & { description?: string } = {}) {
    return this.waiting.waitFor(probe, options);
  }

  /** The count-th (default first) call of `method`, optionally to one chat and matching `where`. */
  waitForCall(method: string, options: WaitOptions & CallFilter = {}): Promise<ApiCall> {
    return this.waiting.waitForCall(method, options);
  }

  /**
   * The next bot message in the chat: the first after the one this method returned last for that
   * chat (or after message_id `after`). Its current state is returned, edits included.
   */
  nextBotMessage(chatId: number, options: WaitOptions & { after?: number } = {}): Promise<BotMessage> {
    return this.waiting.nextBotMessage(chatId, options);
  }

  /** The message once edited again since last seen by a wait helper (or once edit_count reaches `count`). */
  waitForEdit(chatId: number, messageId: number, options: WaitOptions & { count?: number } = {}): Promise<BotMessage> {
    return this.waiting.waitForEdit(chatId, messageId, options);
  }

  waitForAnswer(callbackQueryId: string, options: WaitOptions = {}): Promise<CallbackAnswer> {
    return this.waiting.waitForAnswer(callbackQueryId, options);
  }

  waitForInlineAnswer(inlineQueryId: string, options: WaitOptions = {}): Promise<InlineAnswerRecord> {
    return this.waiting.waitForInlineAnswer(inlineQueryId, options);
  }

  waitForGuestAnswer(guestQueryId: string, options: WaitOptions = {}): Promise<GuestAnswerRecord> {
    return this.waiting.waitFor(() => this.guestAnswer(guestQueryId), { ...options, description: `an answer to guest query ${guestQueryId}` });
  }

  /** The bot is waiting in a long poll: launched, and done with everything it fetched so far. */
  waitForPolling(options: WaitOptions = {}): Promise<void> {
    return this.waiting.waitForPolling(options);
  }

  /**
   * Every queued update was confirmed (the bot polled again after handling it) and no request is
   * in flight: the moment to assert that the bot did nothing more.
   */
  waitForIdle(options: WaitOptions = {}): Promise<void> {
    return this.waiting.waitForIdle(options);
  }

  // ── lifecycle ───────────────────────────────────────────────────────────────

  /** Stops the server; waits still running are rejected. Stop the bot first. */
  async close(): Promise<void> {
    for (const cancel of [...this.cancels]) cancel(new Error('bot API emulator closed while a wait was running'));
    this.delivery.close();
    await this.server.close();
  }

  private diagnostics(): string {
    const updates = this.state.updates;
    const failures = this.log.pendingFailures();
    return [
      'Recent calls:',
      this.log.describeRecent(),
      `Updates not yet confirmed: ${updates.pending().length} (all fetched: ${updates.allDelivered() ? 'yes' : 'no'}); ` +
        `bot long-polling now: ${updates.isPolling() ? 'yes' : 'no'}` +
        (this.state.webhook === undefined ? '' : `; webhook posts in flight: ${this.delivery.inFlight()}`) +
        (failures > 0 ? `; failNext errors still queued: ${failures}` : ''),
    ].join('\n');
  }
}
