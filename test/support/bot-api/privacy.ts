// BotFather's Group Privacy ("privacy mode"), on by default: a bot with it on, and not an
// administrator, receives from a group only commands (general ones and its own), messages that
// mention it and replies to its messages. getMe tells which: can_read_all_group_messages is true
// when it is off. Everything else written in a group is still in the group (a reply may point
// at it), just never sent to the bot.
import type { ChatRecord, StoredMessage } from './chats.ts';
import { botMember } from './members.ts';
import type { EmulatorState } from './state.ts';

/** Whether a user's message in `record` is sent to the bot as an update. */
export function reachesBot(state: EmulatorState, record: ChatRecord, message: StoredMessage): boolean {
  if (record.chat.type === 'private' || state.bot.can_read_all_group_messages) return true;
  const member = botMember(record, state.bot.id);
  if (member.status === 'administrator' || member.status === 'creator') return true;
  const me = state.bot.username.toLowerCase();
  for (const entity of message.entities) {
    const word = message.text.slice(entity.offset, entity.offset + entity.length);
    if (entity.type === 'bot_command') {
      const at = word.indexOf('@');
      if (at === -1 || word.slice(at + 1).toLowerCase() === me) return true;
    }
    if (entity.type === 'mention' && word.slice(1).toLowerCase() === me) return true;
  }
  if (message.reply_to_message_id === undefined) return false;
  return state.chats.message(record.chat.id, message.reply_to_message_id)?.by_bot === true;
}
