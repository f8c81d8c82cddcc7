import { describe, expect, it } from 'vitest';
import { describeSettingsContract } from './settings-contract.ts';
import { postgresBackend, sqliteBackend, usePlace } from './store-backends.ts';

describeSettingsContract(sqliteBackend());
const postgres = postgresBackend();
describeSettingsContract(postgres);

describe('postgres: settings shared by replicas', () => {
  const place = usePlace(postgres);

  it('a language set through one replica holds on the next update another serves', async () => {
    const one = await place().open();
    const two = await place().open();
    await one.settings.setUserLocale(42, 'en');
    await one.settings.setChatLocale(-100, 'en');
    expect(await two.settings.user(42)).toEqual({ locale: 'en' });
    expect(await two.settings.chatLocale(-100)).toBe('en');
    await two.settings.setUserLocale(42, 'ru');
    expect(await one.settings.user(42)).toEqual({ locale: 'ru' });
  });
});
