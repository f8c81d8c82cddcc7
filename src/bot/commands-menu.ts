import type { BotCommand, Telegram } from '../telegram/telegraf/core.ts';
import { createTranslator, LOCALES, type Locale } from '../i18n.ts';

// The command menus Telegram shows: one list for private chats and one for groups, in Russian
// and English (by the user's Telegram language), and the default language for everyone else.

const PRIVATE = ['order', 'spec', 'watch', 'digest', 'export', 'settings', 'timezone', 'lang', 'pagesize', 'help', 'start'] as const;
const GROUP = ['order', 'spec', 'watch', 'digest', 'export', 'settings', 'timezone', 'lang', 'pagesize', 'help', 'autolookup'] as const;

export const commandList = (names: readonly string[], locale: Locale): BotCommand[] => {
  const t = createTranslator(locale);
  return names.map((command) => ({ command, description: t(`commands.${command}`) }));
};

/** Every menu, with its scope and language (none: the default for other languages). */
export const commandMenus = (defaultLanguage: Locale) =>
  [
    { scope: { type: 'all_private_chats' as const }, names: PRIVATE },
    { scope: { type: 'all_group_chats' as const }, names: GROUP },
  ].flatMap(({ scope, names }) => [
    ...LOCALES.map((locale) => ({ scope, language_code: locale as Locale | undefined, commands: commandList(names, locale) })),
    { scope, language_code: undefined, commands: commandList(names, defaultLanguage) },
  ]);

export const setCommandMenus = async (telegram: Telegram, defaultLanguage: Locale): Promise<void> => {
  for (const { scope, language_code, commands } of commandMenus(defaultLanguage)) {
    await telegram.setMyCommands(commands, language_code === undefined ? { scope } : { scope, language_code });
  }
};
