// Who may use the bot and where watches may be kept: ADMIN_USER_IDS, ALLOWED_USER_IDS,
// ALLOWED_CHAT_IDS and ALLOW_ANYONE from the environment, merged with the users and groups admins
// allowed in the chat (kept in the store, held in memory: `Grants`).

export type AccessOptions = {
  userIds: ReadonlySet<number>;
  chatIds: ReadonlySet<number>;
  anyone: boolean;
  /** Admins may use the bot, and manage who else may. */
  adminIds: ReadonlySet<number>;
};

/** What admins allowed at run time, as this process knows it now: asked on every update, so answered from memory. */
export type Grants = { hasUser(userId: number): boolean; hasChat(chatId: number): boolean };

const NO_GRANTS: Grants = { hasUser: () => false, hasChat: () => false };

/** The one access check: the middleware, inline mode, watches, and guest mode (issue 32) ask it. */
export type Access = {
  isAdmin(userId: number): boolean;
  /** A user allowed (or an admin), or anyone in an allowed chat; in inline mode (no chat) only the user counts. */
  isAllowedUser(userId: number, chatId?: number): boolean;
  /**
   * Whether a chat may have watches, whose notifications everyone in it reads: a group only when it
   * is allowed itself, whoever made the watch; a private chat when its user is allowed.
   */
  mayWatchIn(chatId: number): boolean;
  /** Set in the environment: listed there, and not removable in the chat. */
  fromEnvironment(kind: 'user' | 'chat', id: number): boolean;
  readonly options: AccessOptions;
};

export const createAccess = (options: AccessOptions, grants: Grants = NO_GRANTS): Access => {
  const userAllowed = (userId: number) => options.adminIds.has(userId) || options.userIds.has(userId) || grants.hasUser(userId);
  const chatAllowed = (chatId: number) => options.chatIds.has(chatId) || grants.hasChat(chatId);
  return {
    options,
    isAdmin: (userId) => options.adminIds.has(userId),
    isAllowedUser: (userId, chatId) => options.anyone || userAllowed(userId) || (chatId !== undefined && chatAllowed(chatId)),
    mayWatchIn: (chatId) => options.anyone || chatAllowed(chatId) || (chatId > 0 && userAllowed(chatId)),
    fromEnvironment: (kind, id) => (kind === 'user' ? options.adminIds.has(id) || options.userIds.has(id) : options.chatIds.has(id)),
  };
};
