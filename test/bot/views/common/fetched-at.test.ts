import { describe, expect, it } from 'vitest';
import { renderFetchedAt } from '../../../../src/bot/views/common/fetched-at.ts';
import { createFormatter } from '../../../../src/format.ts';
import { createTranslator } from '../../../../src/i18n.ts';

const ru = { t: createTranslator('ru'), fmt: createFormatter('ru') };
const en = { t: createTranslator('en'), fmt: createFormatter('en', 'Asia/Yekaterinburg') };

describe('«обновлено 14:05»', () => {
  it('is the moment to the second as a date_time entity, over the time in the formatter’s zone, in its language', () => {
    const at = new Date('2026-11-23T11:05:30.250Z');
    expect(renderFetchedAt(ru.t, ru.fmt, at)).toBe('<i>обновлено <tg-time unix="1795431930" format="t">14:05</tg-time></i>');
    expect(renderFetchedAt(en.t, en.fmt, at)).toBe('<i>updated <tg-time unix="1795431930" format="t">16:05</tg-time></i>');
  });

  it('asked again within the same second reads the same; another second, another day or another language is written anew', () => {
    const at = new Date('2026-11-23T11:05:30.250Z');
    const first = renderFetchedAt(ru.t, ru.fmt, at);
    expect(renderFetchedAt(ru.t, ru.fmt, new Date('2026-11-23T11:05:30.900Z'))).toBe(first);
    expect(renderFetchedAt(ru.t, ru.fmt, new Date('2026-11-23T11:05:31.000Z'))).toContain('unix="1795431931"');
    expect(renderFetchedAt(ru.t, ru.fmt, at, new Date('2026-11-25T09:00:00Z'))).toBe('<i>обновлено <tg-time unix="1795431930" format="dt">23.11.2026 14:05</tg-time></i>');
    expect(renderFetchedAt(ru.t, ru.fmt, at)).toBe(first);
    expect(renderFetchedAt(ru.t, ru.fmt)).toBeNull();
  });
});
