import type { Chat } from '../../telegram/telegraf/core.ts';
import type { Translate } from '../../i18n.ts';
import { PortalError, type PortalFailure } from '../../portal/errors.ts';
import type { PageSize, Resource } from '../../query.ts';
import { StoreUnavailableError } from '../../store/errors.ts';
import { packCallback, type QueryRef } from '../callback-data/codec.ts';
import type { LookupArgs } from '../lookup-args.ts';
import { escapeHtml } from './common/html.ts';
import type { View } from '../../telegram/view.ts';

// Short texts that are not records: refusals, usage, errors, the welcome. Plain enough to also
// serve as a callback-query alert (no tags there).

export const renderAccessDenied = (userId: number, chat: Chat | undefined, t: Translate): string => {
  const inGroup = chat !== undefined && chat.type !== 'private';
  return inGroup ? t('access.deniedInChat', { id: userId, chatId: chat.id }) : t('access.denied', { id: userId });
};

export const renderUsage = (resource: Resource, failure: Exclude<LookupArgs, { ok: true }>, t: Translate): string =>
  withUsage(t(resource === 'order' ? 'usage.order' : 'usage.spec'), failure, t);

/** What was wrong with the arguments, if it can be said, then how to ask. */
export const withUsage = (usage: string, failure: Exclude<LookupArgs, { ok: true }>, t: Translate): string => {
  switch (failure.reason) {
    case 'badDate':
      return `${t('usage.badDate', { value: escapeHtml(failure.value) })}\n\n${usage}`;
    case 'tooLong':
      return `${t('usage.tooLong', { max: failure.max })}\n\n${usage}`;
    default:
      return usage;
  }
};

const PORTAL_FAILURE_KEYS: Record<PortalFailure, string> = {
  unavailable: 'errors.portalUnavailable',
  failed: 'errors.portalFailed',
  unreadable: 'errors.portalBadData',
};

/** The one mapping from a failure to what the user is told. */
export const renderError = (error: unknown, t: Translate): string => {
  if (error instanceof PortalError) return t(PORTAL_FAILURE_KEYS[error.failure]);
  if (error instanceof StoreUnavailableError) return t('errors.storeUnavailable');
  return t('errors.unexpected');
};

/** The help, with the bot's @username in the inline-mode examples. */
export const renderHelp = (t: Translate, botUsername: string): string => t('help.text', { bot: escapeHtml(botUsername) });

/** The lookups /start offers as examples, each a button that runs it. */
export type WelcomeExamples = { order: QueryRef; spec: QueryRef; status: QueryRef };

/** /start: three lines (and the demo's note), example lookups as buttons, and the full list one press away. */
export const renderWelcome = (demo: boolean, t: Translate, examples: WelcomeExamples): View => ({
  text: [t('start.greeting'), demo ? t('start.demo') : undefined].filter(Boolean).join('\n\n'),
  keyboard: [
    [{ text: t('start.exampleOrder'), callback_data: packCallback({ type: 'lookup', ref: examples.order }) }],
    [{ text: t('start.exampleSpec'), callback_data: packCallback({ type: 'lookup', ref: examples.spec }) }],
    [{ text: t('start.exampleStatus'), callback_data: packCallback({ type: 'lookup', ref: examples.status }) }],
    [{ text: t('start.allCommands'), callback_data: packCallback({ type: 'help' }) }],
  ],
});

/** The record a button pointed at is no longer at its place in the results (the data moved). */
export const renderRecordGone = (
  place: { ref: QueryRef; limit: PageSize; offset: number },
  t: Translate,
): View => ({
  text: t('details.gone'),
  keyboard: [[{ text: t('buttons.back'), callback_data: packCallback({ type: 'page', ref: place.ref, limit: place.limit, offset: place.offset, refresh: false }) }]],
});
