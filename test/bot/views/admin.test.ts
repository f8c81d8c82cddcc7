import { describe, expect, it } from 'vitest';
import { createFormatter } from '../../../src/format.ts';
import { createTranslator } from '../../../src/i18n.ts';
import { renderAccessChange, renderUsers, renderWho } from '../../../src/bot/views/admin.ts';
import { renderAccessRequest, renderDecidedRequest, renderRefusal } from '../../../src/bot/views/access.ts';
import { parseHtml } from '../../support/bot-api/html.ts';

const NOW = new Date('2026-11-23T11:05:00Z');
const en = createTranslator('en');
const ru = createTranslator('ru');

describe('admin views', () => {
  it('names a person by a name when known, HTML escaped, and always by the id to copy', () => {
    expect(renderWho(42, 'Ann <Lee> & Co', en)).toBe('Ann &lt;Lee&gt; &amp; Co (<code>42</code>)');
    expect(renderWho(42, undefined, ru)).toBe('<code>42</code>');
  });

  it('adds a note to a removal while anyone may use the bot anyway', () => {
    const text = renderAccessChange({ kind: 'deniedUser', person: { id: 42 } }, 'deny', true, en, createFormatter('en'), NOW);
    expect(text).toBe('<code>42</code> can no longer use the bot; their watches are stopped.\n\nNote: anyone can use the bot anyway (ALLOW_ANYONE is on, or the bot asks the demo portal).');
    expect(renderAccessChange({ kind: 'usage' }, 'deny', false, ru, createFormatter('ru'), NOW)).toMatch(/^Кого убрать\? Отправьте <code>\/deny 123456789<\/code>/);
  });

  it('/users fits one message however many were added, saying how many more there are', () => {
    const users = Array.from({ length: 500 }, (_, index) => ({ id: 1_000_000 + index, addedAt: NOW.getTime(), addedBy: 7, label: `Person number ${index}` }));
    const list = { anyone: false, admins: [7], envUsers: [], envChats: [], users, chats: [], seen: new Map([[7, NOW.getTime()]]) };
    for (const locale of ['en', 'ru'] as const) {
      const text = renderUsers(list, createTranslator(locale), createFormatter(locale), NOW);
      const plain = parseHtml(text).text;
      expect(plain.length).toBeLessThanOrEqual(4096);
      const shown = plain.split('\n').filter((line) => line.includes('Person number')).length;
      expect(shown).toBeGreaterThan(20);
      expect(plain.endsWith(locale === 'en' ? `… and ${500 - shown} more` : `… и ещё ${500 - shown}`)).toBe(true);
    }
  });
});

describe('access views', () => {
  it('the refusal: the id, the hint, and Request access', () => {
    const view = renderRefusal(42, { id: -100, type: 'supergroup', title: 'G' }, ru);
    expect(view.text).toBe(
      'В этом чате бот недоступен. Чтобы открыть доступ, передайте администратору ваш Telegram ID 42 или ID чата -100.\n\nИли нажмите «Запросить доступ»: администраторы бота получат запрос и решат.',
    );
    expect(view.keyboard).toEqual([[{ text: 'Запросить доступ', callback_data: 'ga' }]]);
  });

  it('an admin’s copy of a request, escaped, then decided without buttons', () => {
    const request = { id: 5, userId: 42, chatId: -100, chatTitle: '<Clients>', name: 'A & B', createdAt: 0, decision: 'deny' as const };
    const view = renderAccessRequest(request, en);
    expect(view.text).toBe('🔑 <b>Access request</b>\nName: A &amp; B\nID: <code>42</code>\nLanguage: not given\nAsked in: &lt;Clients&gt; (<code>-100</code>)');
    expect(view.keyboard).toEqual([[{ text: 'Allow', callback_data: 'gy:5' }, { text: 'Deny', callback_data: 'gn:5' }]]);
    const decided = renderDecidedRequest(request, 'Bob', '14:05', en);
    expect(decided.text.endsWith('\n\n❌ Denied by Bob, 14:05')).toBe(true);
    expect(decided.keyboard).toEqual([]);
  });
});
