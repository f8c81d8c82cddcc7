import type { Translate } from '../../i18n.ts';

// What the bot posts once when it is added to a group: what it does, the group's id, whether
// the group may use it, and what admins do next.

export const renderOnboarding = (chatId: number, allowed: boolean, t: Translate): string =>
  [t('onboarding.added', { chatId }), t(allowed ? 'onboarding.allowed' : 'onboarding.notAllowed'), t('onboarding.forAdmins')].join('\n\n');
