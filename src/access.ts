// Who may use the bot and where watches may be kept: ALLOWED_USER_IDS, ALLOWED_CHAT_IDS, ALLOW_ANYONE.

export type AccessOptions = { userIds: ReadonlySet<number>; chatIds: ReadonlySet<number>; anyone: boolean };

/** A user on the list; in inline mode (no chat) only the user list counts. */
export const isAllowedUser = (options: AccessOptions, userId: number, chatId?: number): boolean =>
  options.anyone || options.userIds.has(userId) || (chatId !== undefined && options.chatIds.has(chatId));

/**
 * Whether a chat may have watches, whose notifications everyone in it reads: a group only when it
 * is on the chat list, whoever made the watch; a private chat when its user is allowed.
 */
export const mayWatchIn = (options: AccessOptions, chatId: number): boolean =>
  options.anyone || options.chatIds.has(chatId) || (chatId > 0 && options.userIds.has(chatId));
