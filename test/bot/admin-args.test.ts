import { describe, expect, it } from 'vitest';
import { parseAdminTarget } from '../../src/bot/admin-args.ts';
import type { Message } from '../../src/telegram/telegraf/core.ts';

// Whom /allow and /deny name (src/bot/admin-args.ts).

const ann = { id: 42, is_bot: false, first_name: 'Ann', last_name: 'Lee', username: 'ann' };
const admin = { id: 1, is_bot: false, first_name: 'Admin' };
const message = (fields: Record<string, unknown> = {}) => ({ message_id: 9, date: 0, chat: { id: 1, type: 'private' }, from: admin, text: '/allow', ...fields }) as unknown as Message;
const reply = (fields: Record<string, unknown>) => message({ reply_to_message: { message_id: 8, date: 0, chat: { id: 1, type: 'private' }, text: 'hi', ...fields } });

describe('parseAdminTarget', () => {
  it('reads an id typed after the command: a user’s, or a group’s (refused), or no id at all', () => {
    expect(parseAdminTarget(' 8000000000 ', message(), false)).toEqual({ kind: 'user', id: 8_000_000_000 });
    expect(parseAdminTarget('-1001234567890', message(), true)).toEqual({ kind: 'groupId', id: -1_001_234_567_890 });
    for (const bad of ['abc', '@ann', '12 34', '0', '1.5', '12345678901234567', '１２３']) expect(parseAdminTarget(bad, message(), false)).toMatchObject({ kind: 'badId' });
    expect(parseAdminTarget('x'.repeat(500), message(), false)).toEqual({ kind: 'badId', value: 'x'.repeat(64) });
  });

  it('reads a replied-to forward: its user, or says why it cannot', () => {
    expect(parseAdminTarget('', reply({ forward_origin: { type: 'user', date: 0, sender_user: ann } }), false)).toEqual({ kind: 'user', id: 42, label: 'Ann Lee (@ann)' });
    expect(parseAdminTarget('', reply({ forward_origin: { type: 'hidden_user', date: 0, sender_user_name: 'Ivan' } }), false)).toEqual({ kind: 'hiddenForward', name: 'Ivan' });
    expect(parseAdminTarget('', reply({ forward_origin: { type: 'channel', date: 0, chat: { id: -100, type: 'channel', title: 'News' }, message_id: 1 } }), false)).toEqual({ kind: 'chatForward' });
    expect(parseAdminTarget('', reply({ forward_origin: { type: 'user', date: 0, sender_user: { ...ann, is_bot: true } } }), false)).toEqual({ kind: 'notAPerson' });
    // A typed id wins over the reply.
    expect(parseAdminTarget('7', reply({ forward_origin: { type: 'user', date: 0, sender_user: ann } }), false)).toEqual({ kind: 'user', id: 7 });
  });

  it('in a group: alone, the group itself; in reply to a member, that member; a forum topic’s first message is no reply', () => {
    expect(parseAdminTarget('', message(), true)).toEqual({ kind: 'group' });
    expect(parseAdminTarget('', message(), false)).toEqual({ kind: 'usage' });
    expect(parseAdminTarget('', reply({ from: ann }), true)).toEqual({ kind: 'user', id: 42, label: 'Ann Lee (@ann)' });
    expect(parseAdminTarget('', reply({ from: { ...ann, is_bot: true } }), true)).toEqual({ kind: 'notAPerson' });
    expect(parseAdminTarget('', reply({ from: ann }), false)).toEqual({ kind: 'notAPerson' });
    expect(parseAdminTarget('', reply({ from: ann, forum_topic_created: { name: 'Orders', icon_color: 0 } }), true)).toEqual({ kind: 'group' });
  });
});
