import type { Update } from '../../src/telegram/telegraf/core.ts';
import { describe, expect, it } from 'vitest';
import { updateKey } from '../../src/telegram/update-key.ts';

const update = (fields: Record<string, unknown>) => ({ update_id: 1, ...fields }) as unknown as Update;

describe('updateKey', () => {
  it('is the chat for messages, member changes and callbacks on messages', () => {
    expect(updateKey(update({ message: { chat: { id: -100 }, from: { id: 7 } } }))).toBe(-100);
    expect(updateKey(update({ my_chat_member: { chat: { id: -200 }, from: { id: 7 } } }))).toBe(-200);
    expect(updateKey(update({ callback_query: { from: { id: 7 }, message: { chat: { id: -300 } } } }))).toBe(-300);
  });

  it('is the user for inline queries, callbacks on inline messages and poll answers', () => {
    expect(updateKey(update({ inline_query: { from: { id: 7 }, query: '' } }))).toBe(7);
    expect(updateKey(update({ callback_query: { from: { id: 8 }, inline_message_id: 'x' } }))).toBe(8);
    expect(updateKey(update({ poll_answer: { user: { id: 9 } } }))).toBe(9);
  });

  it('is undefined when there is neither', () => {
    expect(updateKey(update({ poll: { id: 'p' } }))).toBeUndefined();
  });
});

describe('updateKey on a payload Telegram would never send', () => {
  it.each([
    ['a null payload', { message: null }],
    ['a null chat', { message: { chat: null } }],
    ['a null message of a callback', { callback_query: { message: null, from: null } }],
    ['a string id', { message: { chat: { id: '5' } } }],
    ['an infinite id', { message: { chat: { id: Infinity } } }],
    ['a number payload', { message: 5 }],
    ['no payload', {}],
  ])('is undefined for %s, never throwing', (_name, fields) => {
    expect(updateKey(update(fields))).toBeUndefined();
  });

  it('falls back to the user when the chat is null', () => {
    expect(updateKey(update({ message: { chat: null, from: { id: 7 } } }))).toBe(7);
  });
});
