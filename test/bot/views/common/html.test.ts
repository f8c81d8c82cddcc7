import { describe, expect, test } from 'vitest';
import { TELEGRAM_TEXT_LIMIT, escapeHtml, escapeParams, shorten, visibleLength } from '../../../../src/bot/views/common/html.ts';
import { parseHtml } from '../../../support/bot-api/html.ts';

describe('escapeHtml', () => {
  test('escapes &, <, > and double quotes', () => {
    expect(escapeHtml('Труба 1020х12 "К60" <ТУ 1381-012> & Ко')).toBe(
      'Труба 1020х12 &quot;К60&quot; &lt;ТУ 1381-012&gt; &amp; Ко',
    );
  });

  test('escapes at either end and in runs, and leaves other text as it is', () => {
    expect(escapeHtml('<<&>>"')).toBe('&lt;&lt;&amp;&gt;&gt;&quot;');
    expect(escapeHtml("a'b «в» 😀 №3")).toBe("a'b «в» 😀 №3");
    expect(escapeHtml('')).toBe('');
    expect(escapeHtml('😀<😀')).toBe('😀&lt;😀');
  });

  test('an already escaped text is escaped again, so it reaches the user as typed', () => {
    expect(escapeHtml('&lt;b&gt;')).toBe('&amp;lt;b&amp;gt;');
    expect(parseHtml(escapeHtml('&lt;b&gt; <i>')).text).toBe('&lt;b&gt; <i>');
  });

  test('escapeParams escapes strings and leaves numbers', () => {
    expect(escapeParams({ name: '<x>', count: 3 })).toEqual({ name: '&lt;x&gt;', count: 3 });
  });
});

describe('visibleLength', () => {
  test('counts the text Telegram shows: tags removed, entities decoded', () => {
    expect(visibleLength('<b>Заказ</b> &lt;1&gt; &amp; &quot;2&quot;')).toBe('Заказ <1> & "2"'.length);
    expect(visibleLength('<code>/order 1</code>')).toBe(8);
    expect(visibleLength('&#60;&#x3C;')).toBe(2);
  });

  test('counts UTF-16 code units, as Telegram does', () => {
    expect(visibleLength('🚚 т')).toBe(4);
    expect(visibleLength('&#128666;')).toBe(2);
  });

  test('agrees with the Bot API emulator on a mixed text', () => {
    const html = `<b>${escapeHtml('A & B <c> "d"')}</b>\n• ${escapeHtml('Труба 530х8 🚚')}`;
    expect(visibleLength(html)).toBe(parseHtml(html).text.length);
  });

  test('the limit is Telegram\'s', () => {
    expect(TELEGRAM_TEXT_LIMIT).toBe(4096);
  });
});

describe('shorten', () => {
  test('leaves short text alone', () => {
    expect(shorten('Труба', 5)).toBe('Труба');
    expect(shorten('Труба', Infinity)).toBe('Труба');
  });

  test('cuts long text to the limit, ending in "…"', () => {
    expect(shorten('Труба 530х8 К52', 8)).toBe('Труба 5…');
    expect(shorten('Труба 530х8 К52', 7)).toBe('Труба…');
    expect(shorten('Труба530х8', 6)).toBe('Труба…');
  });

  test('never splits a character made of two code units', () => {
    expect(shorten('🚚🚚🚚🚚', 3)).toBe('🚚🚚…');
  });
});
