import { describe, expect, it } from 'vitest';
import { rerunOf, rerunPayload } from '../../src/bot/rerun.ts';
import { createTranslator } from '../../src/i18n.ts';
import { renderSettings } from '../../src/bot/views/settings.ts';

describe('a lookup as a /start payload (issue 32)', () => {
  it('carries a query there and back within Telegram’s 64 characters of A–Z, a–z, 0–9, _ and -', () => {
    const ref = { query: { resource: 'order', filter: 'SAP_ID', value: '0007300100' } } as const;
    const payload = rerunPayload(ref);
    expect(payload).toMatch(/^v[A-Za-z0-9_-]{1,63}$/);
    expect(rerunOf(payload!)).toEqual(ref);
    expect(rerunOf(rerunPayload({ key: 'AbC_-123456789012345678' })!)).toEqual({ key: 'AbC_-123456789012345678' });
  });

  it('leaves a query that does not fit to the store’s key', () => {
    const query = (value: string) => ({ query: { resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value } }) as const;
    expect(rerunPayload(query('PIPE 530x8 K52 GOST 20295-85, FIFTY CHARACTERS!!'))).toBeUndefined();
    expect(rerunPayload(query('PIPE 530x8 K52 GOST 20295-85 WITH A NAME LONGER THAN ANY BUTTON'))).toBeUndefined();
  });

  it.each(['', 'v', 'answers', 'vx', 'v!!', `v${'A'.repeat(64)}`, `v${Buffer.from('e:o0=0007300100').toString('base64url')}`])('reads %j as no lookup', (payload) => {
    expect(rerunOf(payload)).toBeUndefined();
  });
});

describe('/settings in a group shows the answer mode and the button that switches it', () => {
  it.each([
    ['en', 'public', 'Answers in this group: for everyone.', '🔒 Answer privately', 'va:p'],
    ['ru', 'private', 'Ответы в этой группе: личные.', '📣 Отвечать всем', 'va:g'],
  ] as const)('%s, %s', (locale, answers, line, button, data) => {
    const view = renderSettings({ locale, pageSize: 5, groupLocale: undefined, inGroup: true, answers }, createTranslator(locale));
    expect(view.text).toContain(line);
    expect(view.keyboard).toEqual([[{ text: button, callback_data: data }]]);
    expect(renderSettings({ locale, pageSize: 5, groupLocale: undefined, inGroup: false, answers }, createTranslator(locale)).keyboard).toEqual([]);
  });
});
