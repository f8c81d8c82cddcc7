// A user deletes a message, as a Telegram client lets them: anything in their private chat with the
// bot (it goes for both sides), their own messages in a group, and anyone's as a group's creator or
// an administrator with can_delete_messages. Edits and replies to it then fail as Telegram's do.
import type { User } from 'telegraf/types';
import { memberOf } from './members.ts';
import type { MessageRef } from './simulate.ts';
import type { EmulatorState } from './state.ts';

export interface DeleteMessageInput {
  from: User;
  message: MessageRef;
}

export function userDeletesMessage(state: EmulatorState, input: DeleteMessageInput): void {
  const chatId = 'chat_id' in input.message ? input.message.chat_id : input.message.chat.id;
  const messageId = input.message.message_id;
  const message = state.chats.message(chatId, messageId);
  if (message === undefined) throw new Error(`bot API emulator: message ${messageId} does not exist in chat ${chatId} (never sent, or deleted)`);
  const record = state.chats.find(chatId);
  if (record === undefined) throw new Error(`bot API emulator: unknown chat ${chatId}`);
  if (record.chat.type === 'private') {
    if (chatId !== input.from.id) throw new Error(`bot API emulator: user ${input.from.id} is not in the private chat of ${chatId}`);
  } else if (message.from.id !== input.from.id) {
    const member = memberOf(state, record, input.from.id);
    const mayDelete = member.status === 'creator' || (member.status === 'administrator' && member.rights.can_delete_messages);
    if (!mayDelete) throw new Error(`bot API emulator: user ${input.from.id} may not delete others' messages in chat ${chatId}`);
  }
  message.deleted = true;
  state.feed.emit();
}
