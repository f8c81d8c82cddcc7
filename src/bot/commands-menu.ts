import type { Telegram } from 'telegraf';
import type { BotCommand } from 'telegraf/types';
import { createTranslator, LOCALES, type Locale } from '../i18n.ts';

// The command menus Telegram shows: one list for private chats and one for groups, in Russian
// and English (by the user's Telegram language), and the default language for everyone else.

const PRIVATE = ['order', 'spec', 'watch', 'settings', 'lang', 'pagesize', 'help', 'start'] as const;
const GROUP = ['order', 'spec', 'watch', 'settings', 'lang', 'pagesize', 'help'] as const;

export const commandList = (names: readonly string[], locale: Locale): BotCommand[] => {
  const t = createTranslator(locale);
  return names.map((command) => ({ command, description: t(`commands.${command}`) }));
};

export const setCommandMenus = async (telegram: Telegram, defaultLanguage: Locale): Promise<void> => {
  const scopes = [
    { scope: { type: 'all_private_chats' as const }, names: PRIVATE },
    { scope: { type: 'all_group_chats' as const }, names: GROUP },
  ];
  for (const { scope, names } of scopes) {
    for (const locale of LOCALES) {
      await telegram.setMyCommands(commandList(names, locale), { scope, language_code: locale });
    }
    await telegram.setMyCommands(commandList(names, defaultLanguage), { scope });
  }
};
