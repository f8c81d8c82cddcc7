import { describe, expect, test } from 'vitest';
import ru from '../locales/ru.json' with { type: 'json' };
import en from '../locales/en.json' with { type: 'json' };
import { createTranslator, resolveLocale } from '../src/i18n.ts';
import { parseHtml } from './support/bot-api/html.ts';

type Messages = { [key: string]: string | Messages };

const flatten = (messages: Messages, prefix = ''): Array<[string, string]> =>
  Object.entries(messages).flatMap(([name, value]) =>
    typeof value === 'string' ? [[`${prefix}${name}`, value] as [string, string]] : flatten(value, `${prefix}${name}.`),
  );

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const baseName = (key: string) => key.replace(PLURAL_SUFFIX, '');
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);

/** key (plural groups by base name) → its sorted placeholders, over all forms of a group. */
const placeholderMap = (messages: Messages): Map<string, string[]> => {
  const map = new Map<string, Set<string>>();
  for (const [key, text] of flatten(messages)) {
    const set = map.get(baseName(key)) ?? new Set<string>();
    for (const name of placeholders(text)) if (name !== undefined) set.add(name);
    map.set(baseName(key), set);
  }
  return new Map([...map].map(([key, set]) => [key, [...set].sort()]));
};

/** plural group base name → its forms */
const pluralForms = (messages: Messages): Map<string, string[]> => {
  const forms = new Map<string, string[]>();
  for (const [key] of flatten(messages)) {
    const form = PLURAL_SUFFIX.exec(key)?.[1];
    if (form !== undefined) forms.set(baseName(key), [...(forms.get(baseName(key)) ?? []), form].sort());
  }
  return forms;
};

const catalogs = { ru, en } as Record<'ru' | 'en', Messages>;

describe('locale files', () => {
  test('ru and en have the same keys, plural groups compared by base name', () => {
    expect([...placeholderMap(catalogs.ru).keys()].sort()).toEqual([...placeholderMap(catalogs.en).keys()].sort());
  });

  test('every key has the same {placeholders} in both languages', () => {
    const english = placeholderMap(catalogs.en);
    for (const [key, names] of placeholderMap(catalogs.ru)) expect({ key, names }).toEqual({ key, names: english.get(key) });
  });

  test('plural groups: one/few/many/other in Russian, one/other in English, each with {count}', () => {
    const russian = pluralForms(catalogs.ru);
    const english = pluralForms(catalogs.en);
    expect([...russian.keys()].sort()).toEqual([...english.keys()].sort());
    for (const forms of russian.values()) expect(forms).toEqual(['few', 'many', 'one', 'other']);
    for (const forms of english.values()) expect(forms).toEqual(['one', 'other']);
    for (const catalog of Object.values(catalogs)) {
      for (const [key, text] of flatten(catalog)) if (PLURAL_SUFFIX.test(key)) expect(text).toContain('{count}');
    }
  });

  test.each(['ru', 'en'] as const)('every %s string is valid Telegram HTML with its placeholders filled', (locale) => {
    for (const [key, text] of flatten(catalogs[locale])) {
      const filled = text.replace(/\{(\w+)\}/g, 'x');
      expect(() => parseHtml(filled), key).not.toThrow();
    }
  });

  test.each(['ru', 'en'] as const)('%s errors and refusals are plain text short enough for a button alert', (locale) => {
    const t = createTranslator(locale);
    const alerts = ['errors.portalUnavailable', 'errors.portalFailed', 'errors.portalBadData', 'errors.unexpected', 'errors.staleButton'];
    for (const key of alerts) {
      const text = t(key);
      expect(text, key).not.toMatch(/[<>&]/);
      expect(text.length, key).toBeLessThanOrEqual(200);
    }
    for (const key of ['access.denied', 'access.deniedInChat']) {
      const text = t(key, { id: 1234567890123, chatId: -1001234567890123 });
      expect(text, key).not.toMatch(/[<>&]/);
      expect(text.length, key).toBeLessThanOrEqual(200);
    }
  });
});

/** Every string of these keys (a trailing `*` takes a whole group), with its placeholders filled by `sample`. */
const stringsOf = (locale: 'ru' | 'en', patterns: readonly string[]): Array<[string, string]> =>
  flatten(catalogs[locale])
    .filter(([key]) => patterns.some((pattern) => (pattern.endsWith('*') ? key.startsWith(pattern.slice(0, -1)) : key === pattern)))
    .map(([key, text]) => [key, text.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLES[name] ?? 'x')]);

/** Long but realistic values for placeholders. */
const SAMPLES: Record<string, string> = {
  code: '10012345',
  sapId: '0007300100',
  n: '100',
  page: '99',
  pages: '99',
  count: '1234',
  id: '1234567890123',
  chatId: '-1001234567890123',
  language: 'Русский',
  size: '20',
};

const TAG_OR_ENTITY = /[<>&]/;

describe.each(['ru', 'en'] as const)('%s strings for buttons, alerts and menus', (locale) => {
  test('button labels: at most 30 characters, plain text', () => {
    const labels = stringsOf(locale, ['buttons.*', 'lang.names.*', 'pager.*', 'access.requestButton', 'admin.request.allow', 'admin.request.deny', 'start.example*', 'start.allCommands']);
    expect(labels.map(([key]) => key)).toEqual(expect.arrayContaining(['buttons.back', 'buttons.refresh', 'lang.names.ru', 'pager.position']));
    for (const [key, text] of labels) {
      expect(text, key).not.toMatch(TAG_OR_ENTITY);
      expect(text.length, key).toBeLessThanOrEqual(30);
    }
  });

  test('alerts and toasts: at most 200 characters, plain text', () => {
    const alerts = stringsOf(locale, ['errors.*', 'access.*', 'refresh.*', 'details.*', 'lang.set', 'lang.adminsOnly', 'pagesize.set', 'admin.onlyAdmins', 'admin.request.already*', 'admin.request.gone', 'admin.request.decided*']);
    expect(alerts.map(([key]) => key)).toEqual(
      expect.arrayContaining(['errors.staleButton', 'access.denied', 'refresh.started', 'details.gone', 'lang.set', 'lang.adminsOnly', 'pagesize.set']),
    );
    for (const [key, text] of alerts) {
      expect(text, key).not.toMatch(TAG_OR_ENTITY);
      expect(text.length, key).toBeLessThanOrEqual(200);
    }
  });

  test('command menu descriptions: 3 to 256 characters, plain text', () => {
    const commands = stringsOf(locale, ['commands.*']);
    expect(commands.map(([key]) => key).sort()).toEqual(
      ['commands.answers', 'commands.autolookup', 'commands.digest', 'commands.export', 'commands.help', 'commands.lang', 'commands.order', 'commands.pagesize', 'commands.settings', 'commands.spec', 'commands.start', 'commands.timezone', 'commands.watch'],
    );
    for (const [key, text] of commands) {
      expect(text, key).not.toMatch(TAG_OR_ENTITY);
      expect(text.length, key).toBeGreaterThanOrEqual(3);
      expect(text.length, key).toBeLessThanOrEqual(256);
    }
  });

  test('inline titles and descriptions are plain text; the switch button at most 64 characters', () => {
    for (const [key, text] of stringsOf(locale, ['inline.*'])) expect(text, key).not.toMatch(TAG_OR_ENTITY);
  });

  test('language names are the same in both languages', () => {
    const t = createTranslator(locale);
    expect([t('lang.names.ru'), t('lang.names.en')]).toEqual(['Русский', 'English']);
  });
});

describe('translator', () => {
  test('Russian plurals for 1, 2, 5, 11, 21', () => {
    const t = createTranslator('ru');
    const forms = [1, 2, 5, 11, 21].map((count) => t('card.positionCount', { count }));
    expect(forms.join(', ')).toBe('1 позиция, 2 позиции, 5 позиций, 11 позиций, 21 позиция');
    expect([1, 2, 5, 11, 21].map((count) => t('card.morePositions', { count }))).toEqual([
      '… и ещё 1 позиция',
      '… и ещё 2 позиции',
      '… и ещё 5 позиций',
      '… и ещё 11 позиций',
      '… и ещё 21 позиция',
    ]);
    expect([1, 3, 12].map((count) => t('results.specificationsNotShown', { count }))).toEqual([
      'Ещё 1 спецификация не поместилась в это сообщение: уточните запрос.',
      'Ещё 3 спецификации не поместились в это сообщение: уточните запрос.',
      'Ещё 12 спецификаций не поместились в это сообщение: уточните запрос.',
    ]);
  });

  test("plural forms by CLDR's rules past the first few: hundreds, teens, fractions, zero", () => {
    const ru = createTranslator('ru');
    expect([0, 101, 111, 112, 122, 1_000_001, 1.5].map((count) => ru('card.positionCount', { count }))).toEqual([
      '0 позиций',
      '101 позиция',
      '111 позиций',
      '112 позиций',
      '122 позиции',
      '1000001 позиция',
      '1.5 позиции',
    ]);
    expect([0, 1.5].map((count) => createTranslator('en')('card.positionCount', { count }))).toEqual(['0 positions', '1.5 positions']);
  });

  test('English plurals', () => {
    const t = createTranslator('en');
    expect([1, 2, 21].map((count) => t('card.positionCount', { count }))).toEqual(['1 position', '2 positions', '21 positions']);
    expect(t('card.morePositions', { count: 1 })).toBe('… and 1 more position');
  });

  test('placeholders are filled', () => {
    expect(createTranslator('en')('access.denied', { id: 42 })).toBe(
      'You have no access to this bot. To get it, send your Telegram ID to the administrator: 42',
    );
    expect(createTranslator('ru')('usage.tooLong', { max: 100 })).toBe('Слишком длинный запрос: не больше 100 символов.');
    expect(createTranslator('en')('pager.position', { page: 2, pages: 5 })).toBe('2/5');
  });

  test('a missing key is an error, not a blank message', () => {
    expect(() => createTranslator('ru')('no.such.key')).toThrow('missing ru string "no.such.key"');
  });
});

describe('resolveLocale', () => {
  test.each([
    ['ru', 'en', 'ru'],
    ['ru-RU', 'en', 'ru'],
    ['RU', 'en', 'ru'],
    ['en', 'ru', 'en'],
    ['en-GB', 'ru', 'en'],
    ['en_US', 'ru', 'en'],
    ['de', 'ru', 'ru'],
    ['uk', 'en', 'en'],
    ['', 'ru', 'ru'],
    [undefined, 'en', 'en'],
  ] as const)('%s with fallback %s → %s', (code, fallback, expected) => {
    expect(resolveLocale(code, fallback)).toBe(expected);
  });
});
