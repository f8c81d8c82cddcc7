import type { Telegram } from '../telegram/telegraf/core.ts';
import { commandMenus, setCommandMenus } from '../bot/commands-menu.ts';
import type { Locale } from '../i18n.ts';
import { shortHash } from '../short-hash.ts';
import type { CoordinationStore } from '../store/store.ts';

const FINGERPRINT_KEY = 'commands.fingerprint';

/**
 * The command menus, set once for all replicas and restarts: only when they differ from the ones
 * last set (a fingerprint in the store), under a lock, so N replicas starting together make one
 * round of setMyCommands calls instead of N (Telegram answers a burst with 429).
 */
export const setCommandMenusOnce = (
  telegram: Telegram,
  defaultLanguage: Locale,
  coordination: Pick<CoordinationStore, 'value' | 'setValue' | 'exclusively'>,
  now: () => number = Date.now,
): Promise<boolean> =>
  coordination.exclusively('command-menus', async () => {
    const fingerprint = shortHash(JSON.stringify(commandMenus(defaultLanguage)), 22);
    if ((await coordination.value(FINGERPRINT_KEY)) === fingerprint) return false;
    await setCommandMenus(telegram, defaultLanguage);
    await coordination.setValue(FINGERPRINT_KEY, fingerprint, now());
    return true;
  });
