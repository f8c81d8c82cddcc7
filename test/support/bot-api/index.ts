// A strict, in-process Telegram Bot API for end-to-end tests. Typical use:
//
//   const api = await startBotApi();
//   const bot = new Telegraf(api.token, { telegram: { apiRoot: api.apiRoot } });
//   const running = bot.launch();
//   const user = api.createUser();
//   api.sendText({ from: user, text: '/start' });
//   const reply = await api.nextBotMessage(user.id);
//   const queryId = api.pressButton({ from: user, message: reply, data: reply.buttons[0].callback_data });
//   await api.waitForEdit(user.id, reply.message_id);
//   await api.waitForAnswer(queryId);
//   const inlineId = api.sendInlineQuery({ from: user, query: 'order 42' });
//   const answer = await api.waitForInlineAnswer(inlineId);
//   const [file] = api.documentsIn(user.id);   // sendDocument's uploads, bytes kept
//   bot.stop(); await running; await api.close();
//
// Requests Telegram would refuse are refused with its status and description, so a bot bug
// surfaces as a failed call (see api.failedCalls()) rather than passing silently.
export { BotApi } from './emulator.ts';
export { DEFAULT_TOKEN, DEFAULT_USERNAME, startBotApi } from './start.ts';
export type { StartBotApiOptions } from './start.ts';
export type { CallFilter } from './bot-waits.ts';
export type { ApiCall, ApiResponse, FailureMatch, InjectedFailure } from './calls.ts';
export type { ChatActionRecord, EmulatedChat } from './chats.ts';
export type { HeldCalls } from './front.ts';
export type { AdminRights, MemberOptions, MemberPermissions, MemberStatus } from './members.ts';
export type { MessageRef, NewGroupFields, PressButtonInput, SendPhotoInput, SendTextInput } from './simulate.ts';
export type { DeleteMessageInput } from './simulate-delete.ts';
export type { BotMembershipInput } from './simulate-members.ts';
export type { SendInlineQueryInput } from './simulate-inline.ts';
export type { GuestMessageInput } from './simulate-guest.ts';
export type { CallbackAnswer, GuestAnswerRecord, InlineAnswerRecord, InlineChatType, InlineMessageRecord, WebhookRecord } from './state.ts';
export { GUEST_ANSWER_WINDOW_MS } from './state.ts';
export type { WebhookAttempt, WebhookTarget } from './webhook-delivery.ts';
export type { BotDocument, BotMessage, SentDocument } from './views.ts';
export type { WaitOptions } from './waits.ts';
export { parseHtml } from './html.ts';
export { CURRENT_BOT_API_VERSION } from './versions.ts';
export type { BotApiVersion, IgnoredField } from './versions.ts';
export { MAX_RICH_BLOCKS, MAX_RICH_CHARACTERS, MAX_RICH_DEPTH, MAX_TABLE_COLUMNS } from './rich-message.ts';
export { plainOf } from './rich-html.ts';
export type { HtmlOptions, ParsedText } from './html.ts';
