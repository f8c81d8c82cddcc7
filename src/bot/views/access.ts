import type { Chat } from '../../telegram/telegraf/core.ts';
import type { Translate } from '../../i18n.ts';
import type { AccessRequest } from '../../store/access-store.ts';
import type { View } from '../../telegram/view.ts';
import { packCallback } from '../callback-data/codec.ts';
import { escapeHtml } from './common/html.ts';
import { renderAccessDenied } from './notices.ts';

// What strangers and admins see of access: the refusal with its Request access button, and an
// admin's copy of a request, before and after someone decided it.

/** The refusal of a command: the stranger's id (and the group's), and a button to ask the admins. */
export const renderRefusal = (userId: number, chat: Chat | undefined, t: Translate): View => ({
  text: `${renderAccessDenied(userId, chat, t)}\n\n${t('access.requestHint')}`,
  keyboard: [[{ text: t('access.requestButton'), callback_data: packCallback({ type: 'requestAccess' }) }]],
});

/** "Ann Lee (@ann)": how a person is named to admins; HTML. */
export const personName = (person: { name: string; username?: string | undefined }): string =>
  escapeHtml(person.username ? `${person.name} (@${person.username})` : person.name);

/** A Telegram user's name as a request keeps it. */
export const fullName = (user: { first_name: string; last_name?: string | undefined }): string => [user.first_name, user.last_name].filter(Boolean).join(' ');

const requestLines = (request: AccessRequest, t: Translate): string[] => [
  t('admin.request.title'),
  t('admin.request.name', { name: escapeHtml(request.name) }),
  ...(request.username ? [t('admin.request.username', { username: escapeHtml(request.username) })] : []),
  t('admin.request.id', { id: request.userId }),
  t('admin.request.language', { language: escapeHtml(request.languageCode ?? t('admin.request.unknownLanguage')) }),
  request.chatId === request.userId
    ? t('admin.request.askedPrivate')
    : t('admin.request.askedInChat', { title: escapeHtml(request.chatTitle ?? String(request.chatId)), chatId: request.chatId }),
];

/** An admin's copy of a request, with Allow and Deny. */
export const renderAccessRequest = (request: AccessRequest, t: Translate): View => ({
  text: requestLines(request, t).join('\n'),
  keyboard: [
    [
      { text: t('admin.request.allow'), callback_data: packCallback({ type: 'decideAccess', requestId: request.id, decision: 'allow' }) },
      { text: t('admin.request.deny'), callback_data: packCallback({ type: 'decideAccess', requestId: request.id, decision: 'deny' }) },
    ],
  ],
});

/** The same copy once decided: who decided and when, no buttons. `admin` is HTML. */
export const renderDecidedRequest = (request: AccessRequest, admin: string, when: string, t: Translate): View => ({
  text: [...requestLines(request, t), '', t(request.decision === 'allow' ? 'admin.request.allowed' : 'admin.request.denied', { admin, when })].join('\n'),
  keyboard: [],
});
