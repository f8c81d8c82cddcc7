import { callBotApi, type BotCommand, type Telegram } from '../telegram/telegraf/core.ts';
import { createTranslator, LOCALES, type Locale } from '../i18n.ts';

// The command menus Telegram shows: one list for private chats and one for groups, in Russian
// and English (by the user's Telegram language), and the default language for everyone else.

const PRIVATE = ['order', 'spec', 'watch', 'digest', 'export', 'settings', 'timezone', 'lang', 'pagesize', 'help', 'start'] as const;
const GROUP = ['order', 'spec', 'watch', 'digest', 'export', 'settings', 'timezone', 'lang', 'pagesize', 'help', 'autolookup', 'answers'] as const;
/** In a group with private answers these are sent ephemerally (BotCommand.is_ephemeral, Bot API 10.2). */
const EPHEMERAL = new Set(['order', 'spec', 'export']);

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

/**
 * The menus of one group with private answers (issue 32): the group menu with the lookup commands
 * ephemeral where the server reads is_ephemeral, in each language and the default, in the group's
 * own scope. Set when the mode changes, never at start: Telegram keeps them.
 */
export const privateGroupMenus = (defaultLanguage: Locale, ephemeral: boolean) =>
  [...LOCALES.map((locale) => locale as Locale | undefined), undefined].map((language_code) => ({
    language_code,
    commands: commandList(GROUP, language_code ?? defaultLanguage).map((command) => (ephemeral && EPHEMERAL.has(command.command) ? { ...command, is_ephemeral: true } : command)),
  }));

/** A group's menus for its answer mode: its own, with ephemeral lookups, when private; the groups' menu again when public. */
export const setGroupMenus = async (telegram: Pick<Telegram, 'callApi'>, chatId: number, mode: 'private' | 'public', options: { defaultLanguage: Locale; ephemeral: boolean }): Promise<void> => {
  const scope = { type: 'chat' as const, chat_id: chatId };
  for (const { language_code, commands } of privateGroupMenus(options.defaultLanguage, options.ephemeral)) {
    const language = language_code === undefined ? {} : { language_code };
    if (mode === 'private') await callBotApi(telegram, 'setMyCommands', { commands, scope, ...language });
    else await callBotApi(telegram, 'deleteMyCommands', { scope, ...language });
  }
};
