/**
 * The update types the bot handles: asked for explicitly, in polling and in the webhook alike.
 * `guest_message` (Bot API 10.0, guest mode) must be named here, or Telegram never sends it; an
 * older server skips a name it does not know.
 */
export const ALLOWED_UPDATES = ['message', 'callback_query', 'inline_query', 'my_chat_member', 'guest_message'] as const;
