import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Grant } from '../../store/access-store.ts';
import { escapeHtml, TELEGRAM_TEXT_LIMIT } from './common/html.ts';

// What admins read: the answer to /allow and /deny, and /users.

export type Person = { id: number; label?: string };

/** What came of /allow or /deny (src/bot/access-changes.ts), or why nothing did. */
export type AccessChange =
  | { kind: 'usage' | 'chatForward' | 'notAPerson' }
  | { kind: 'badId'; value: string }
  | { kind: 'groupId'; id: number }
  | { kind: 'hiddenForward'; name: string }
  | { kind: 'allowedUser' | 'alreadyEnvUser' | 'alreadyAdmin' | 'deniedUser' | 'notListedUser' | 'denyAdmin' | 'denyEnvUser'; person: Person }
  | { kind: 'alreadyUser'; person: Person; grant: Grant }
  | { kind: 'allowedGroup' | 'alreadyEnvGroup' | 'deniedGroup' | 'notListedGroup' | 'denyEnvGroup' }
  | { kind: 'alreadyGroup'; grant: Grant };

/** A person or group as admins see them: a name when one is known, and the id to copy. */
export const renderWho = (id: number, label: string | undefined, t: Translate): string =>
  label ? t('admin.who', { name: escapeHtml(label), id }) : t('admin.whoId', { id });

const when = (at: number, fmt: Formatter, now: Date) => fmt.dateTime(new Date(at), now);

/** The answer to `/allow` or `/deny` (`anyone`: ALLOW_ANYONE is on, so a removal changes little). */
export const renderAccessChange = (change: AccessChange, command: 'allow' | 'deny', anyone: boolean, t: Translate, fmt: Formatter, now: Date): string => {
  const text = ((): string => {
    switch (change.kind) {
      case 'usage':
        return t(`admin.${command}.usage`);
      case 'badId':
        return t('admin.badId', { value: escapeHtml(change.value) });
      case 'groupId':
        return t('admin.groupId', { id: change.id });
      case 'hiddenForward':
        return t('admin.hiddenForward', { name: escapeHtml(change.name) });
      case 'chatForward':
        return t('admin.chatForward');
      case 'notAPerson':
        return t('admin.notAPerson');
      case 'allowedUser':
        return t('admin.allow.user', { who: renderWho(change.person.id, change.person.label, t) });
      case 'alreadyUser':
        return t('admin.allow.alreadyUser', { who: renderWho(change.person.id, change.person.label, t), when: when(change.grant.addedAt, fmt, now), by: renderWho(change.grant.addedBy, undefined, t) });
      case 'alreadyEnvUser':
        return t('admin.allow.alreadyEnvUser', { who: renderWho(change.person.id, change.person.label, t) });
      case 'alreadyAdmin':
        return t('admin.allow.alreadyAdmin', { who: renderWho(change.person.id, change.person.label, t) });
      case 'allowedGroup':
        return t('admin.allow.group');
      case 'alreadyGroup':
        return t('admin.allow.alreadyGroup', { when: when(change.grant.addedAt, fmt, now), by: renderWho(change.grant.addedBy, undefined, t) });
      case 'alreadyEnvGroup':
        return t('admin.allow.alreadyEnvGroup');
      case 'deniedUser':
        return t('admin.deny.user', { who: renderWho(change.person.id, change.person.label, t) });
      case 'notListedUser':
        return t('admin.deny.notListed', { who: renderWho(change.person.id, change.person.label, t) });
      case 'denyAdmin':
        return t('admin.deny.admin', { who: renderWho(change.person.id, change.person.label, t) });
      case 'denyEnvUser':
        return t('admin.deny.envUser', { who: renderWho(change.person.id, change.person.label, t) });
      case 'deniedGroup':
        return t('admin.deny.group');
      case 'notListedGroup':
        return t('admin.deny.notListedGroup');
      case 'denyEnvGroup':
        return t('admin.deny.envGroup');
    }
  })();
  const removed = change.kind === 'deniedUser' || change.kind === 'deniedGroup';
  return removed && anyone ? `${text}\n\n${t('admin.anyoneNote')}` : text;
};

export type UsersList = {
  anyone: boolean;
  admins: readonly number[];
  envUsers: readonly number[];
  envChats: readonly number[];
  users: readonly Grant[];
  chats: readonly Grant[];
  /** When each id was last seen using the bot. */
  seen: ReadonlyMap<number, number>;
};

/** /users: everyone allowed, by where it comes from; cut short (with a count) to fit one message. */
export const renderUsers = (list: UsersList, t: Translate, fmt: Formatter, now: Date): string => {
  const seen = (id: number) => {
    const at = list.seen.get(id);
    return at === undefined ? t('admin.users.never') : when(at, fmt, now);
  };
  const envItems = (ids: readonly number[]) => ids.map((id) => t('admin.users.envItem', { who: renderWho(id, undefined, t), seen: seen(id) }));
  const grantItems = (grants: readonly Grant[]) =>
    grants.map((grant) => t('admin.users.item', { who: renderWho(grant.id, grant.label, t), when: when(grant.addedAt, fmt, now), by: renderWho(grant.addedBy, undefined, t), seen: seen(grant.id) }));
  const sections: Array<[string, string[]]> = [
    [t('admin.users.admins'), envItems(list.admins)],
    ...(list.envUsers.length > 0 ? [[t('admin.users.envUsers'), envItems(list.envUsers)] as [string, string[]]] : []),
    ...(list.envChats.length > 0 ? [[t('admin.users.envChats'), envItems(list.envChats)] as [string, string[]]] : []),
    [t('admin.users.users'), grantItems(list.users)],
    [t('admin.users.chats'), grantItems(list.chats)],
  ];
  const lines = [t('admin.users.title'), ...(list.anyone ? [t('admin.users.anyone')] : [])];
  const total = sections.reduce((sum, [, items]) => sum + items.length, 0);
  // Room for the "and N more" line at the end.
  const room = TELEGRAM_TEXT_LIMIT - 100;
  let length = lines.join('\n').length;
  let shown = 0;
  const fits = (text: string) => length + text.length + 2 <= room;
  for (const [title, items] of sections) {
    const body = items.length === 0 ? [t('admin.users.none')] : items;
    if (!fits(title)) break;
    lines.push('', title);
    length += title.length + 2;
    let written = 0;
    for (const item of body) {
      if (!fits(item)) break;
      lines.push(item);
      length += item.length + 1;
      written += 1;
    }
    if (written < body.length) {
      shown += written;
      break;
    }
    shown += items.length;
  }
  if (shown < total) lines.push(t('admin.users.more', { count: total - shown }));
  return lines.join('\n');
};
