import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../src/store/errors.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import type { SettingsStore } from '../../src/store/store.ts';
import { startHarness, type Harness } from '../support/harness.ts';

// The store cannot even say how a user wants to be spoken to (PostgreSQL down): "the bot cannot
// save right now" comes in the language the update carries, not DEFAULT_LANGUAGE (ru here).

let failing = false;
const unreadable = (settings: SettingsStore): SettingsStore => {
  const fail = () => {
    throw new StoreUnavailableError('postgres://db:5432/bot', 'connect ECONNREFUSED');
  };
  return {
    ...settings,
    user: (userId) => (failing ? fail() : settings.user(userId)),
    chatLocale: (chatId) => (failing ? fail() : settings.chatLocale(chatId)),
  };
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    openStore: (dataDir) => {
      const store = openSqliteStore({ dataDir });
      return { ...store, settings: unreadable(store.settings) };
    },
  });
});
afterAll(() => h.close());

describe('a store that cannot read settings', () => {
  it('answers commands and buttons in the language of the update', async () => {
    const en = h.api.createUser({ language_code: 'en-GB' });
    const ru = h.api.createUser({ language_code: 'ru' });
    const other = h.api.createUser({ language_code: 'de' });
    const sizes = await h.ask(en, '/pagesize');
    failing = true;
    try {
      expect((await h.ask(en, '/order 0007300100')).text).toBe('The bot cannot save right now. Please try again later.');
      expect((await h.ask(ru, '/order 0007300100')).text).toBe('Бот сейчас не может сохранить данные. Попробуйте позже.');
      // A language the bot does not speak: DEFAULT_LANGUAGE.
      expect((await h.ask(other, '/order 0007300100')).text).toBe('Бот сейчас не может сохранить данные. Попробуйте позже.');
      const pressed = await h.press(en, sizes, h.button(sizes, '10'));
      expect(pressed.answer).toMatchObject({ show_alert: true, text: 'The bot cannot save right now. Please try again later.' });
    } finally {
      failing = false;
    }
  });
});
