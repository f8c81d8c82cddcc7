/** The update types the bot handles: asked for explicitly, in polling and in the webhook alike. */
export const ALLOWED_UPDATES = ['message', 'callback_query', 'inline_query', 'my_chat_member'] as const;
