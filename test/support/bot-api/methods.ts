import type { MethodHandler } from './method-context.ts';
import {
  deleteMyCommands,
  deleteWebhook,
  getMe,
  getMyCommands,
  getUpdates,
  getWebhookInfo,
  setMyCommands,
  setWebhook,
} from './methods-bot.ts';
import { answerCallbackQuery, getChat, leaveChat, sendChatAction } from './methods-chats.ts';
import { sendDocument } from './methods-documents.ts';
import { answerInlineQuery } from './methods-inline.ts';
import { answerGuestQuery } from './methods-guest.ts';
import { deleteEphemeralMessage, editEphemeralMessageReplyMarkup, editEphemeralMessageText } from './ephemeral.ts';
import { getChatAdministrators, getChatMember } from './methods-members.ts';
import { deleteMessage, editMessageReplyMarkup, editMessageText, sendMessage, sendRichMessage } from './methods-messages.ts';

const METHODS: Record<string, MethodHandler> = {
  getMe,
  getUpdates,
  setWebhook,
  deleteWebhook,
  getWebhookInfo,
  setMyCommands,
  deleteMyCommands,
  getMyCommands,
  sendMessage,
  sendRichMessage,
  sendDocument,
  editMessageText,
  editMessageReplyMarkup,
  deleteMessage,
  editEphemeralMessageText,
  editEphemeralMessageReplyMarkup,
  deleteEphemeralMessage,
  answerCallbackQuery,
  answerInlineQuery,
  answerGuestQuery,
  sendChatAction,
  getChat,
  getChatMember,
  getChatAdministrators,
  leaveChat,
};

const BY_LOWER_NAME = new Map(Object.entries(METHODS).map(([name, handler]) => [name.toLowerCase(), { name, handler }]));

/** Bot API method names are case-insensitive; the canonical spelling is returned. */
export const findMethod = (name: string): { name: string; handler: MethodHandler } | undefined =>
  BY_LOWER_NAME.get(name.toLowerCase());

export const emulatedMethods = (): string[] => Object.keys(METHODS);
