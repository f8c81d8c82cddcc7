import type { Logger } from 'pino';
import type { Access } from '../access.ts';
import type { AccessStore } from '../store/access-store.ts';
import type { WatchStore } from '../store/watch-store.ts';
import type { AdminTarget } from './admin-args.ts';
import type { AccessChange, Person } from './views/admin.ts';
import { auditAccess } from './access-audit.ts';

// What /allow and /deny do, as plain values: the change in the store (in force on every replica
// within a second), the watches of whoever lost access stopped at once, one audit line, and what
// to tell the admin (views/admin.ts says it).

export type AccessChangeDeps = {
  access: Access;
  store: AccessStore;
  watches: Pick<WatchStore, 'removeChat'>;
  logger: Logger;
  now: () => number;
};

export const createAccessChanges = ({ access, store, watches, logger, now }: AccessChangeDeps) => {
  /** Whoever may no longer keep watches loses them now, not at their next poll. */
  const stopWatches = async (chatId: number) => {
    if (!access.mayWatchIn(chatId)) await watches.removeChat(chatId);
  };

  const allowUser = async (by: number, person: Person): Promise<AccessChange> => {
    const refused = (reason: string, change: AccessChange): AccessChange => {
      auditAccess(logger, { by, action: 'allow', kind: 'user', id: person.id, outcome: 'refused', reason });
      return change;
    };
    if (access.isAdmin(person.id)) return refused('an admin', { kind: 'alreadyAdmin', person });
    if (access.fromEnvironment('user', person.id)) return refused('allowed in the environment', { kind: 'alreadyEnvUser', person });
    const added = await store.allowUser({ id: person.id, by, at: now(), ...(person.label ? { label: person.label } : {}) });
    if (!added) {
      const grant = (await store.users()).find((candidate) => candidate.id === person.id);
      if (grant) return refused('already allowed', { kind: 'alreadyUser', person: { ...person, ...(grant.label ? { label: grant.label } : {}) }, grant });
    }
    auditAccess(logger, { by, action: 'allow', kind: 'user', id: person.id, outcome: 'granted' });
    return { kind: 'allowedUser', person };
  };

  const denyUser = async (by: number, person: Person): Promise<AccessChange> => {
    const refused = (reason: string, change: AccessChange): AccessChange => {
      auditAccess(logger, { by, action: 'deny', kind: 'user', id: person.id, outcome: 'refused', reason });
      return change;
    };
    if (access.isAdmin(person.id)) return refused('an admin', { kind: 'denyAdmin', person });
    if (access.fromEnvironment('user', person.id)) return refused('allowed in the environment', { kind: 'denyEnvUser', person });
    const grant = (await store.users()).find((candidate) => candidate.id === person.id);
    const known = { ...person, ...(grant?.label ? { label: grant.label } : {}) };
    if (!(await store.denyUser(person.id))) return refused('not on the list', { kind: 'notListedUser', person: known });
    await stopWatches(person.id);
    auditAccess(logger, { by, action: 'deny', kind: 'user', id: person.id, outcome: 'removed' });
    return { kind: 'deniedUser', person: known };
  };

  const allowGroup = async (by: number, chat: { id: number; title?: string }): Promise<AccessChange> => {
    const refused = (reason: string, change: AccessChange): AccessChange => {
      auditAccess(logger, { by, action: 'allow', kind: 'chat', id: chat.id, outcome: 'refused', reason });
      return change;
    };
    if (access.fromEnvironment('chat', chat.id)) return refused('allowed in the environment', { kind: 'alreadyEnvGroup' });
    if (!(await store.allowChat({ id: chat.id, by, at: now(), ...(chat.title ? { label: chat.title } : {}) }))) {
      const grant = (await store.chats()).find((candidate) => candidate.id === chat.id);
      if (grant) return refused('already allowed', { kind: 'alreadyGroup', grant });
    }
    auditAccess(logger, { by, action: 'allow', kind: 'chat', id: chat.id, outcome: 'granted' });
    return { kind: 'allowedGroup' };
  };

  const denyGroup = async (by: number, chatId: number): Promise<AccessChange> => {
    const refused = (reason: string, change: AccessChange): AccessChange => {
      auditAccess(logger, { by, action: 'deny', kind: 'chat', id: chatId, outcome: 'refused', reason });
      return change;
    };
    if (access.fromEnvironment('chat', chatId)) return refused('allowed in the environment', { kind: 'denyEnvGroup' });
    if (!(await store.denyChat(chatId))) return refused('not on the list', { kind: 'notListedGroup' });
    await stopWatches(chatId);
    auditAccess(logger, { by, action: 'deny', kind: 'chat', id: chatId, outcome: 'removed' });
    return { kind: 'deniedGroup' };
  };

  return {
    /** `/allow` or `/deny` by an admin, in `chat`, naming `target`. */
    async apply(action: 'allow' | 'deny', by: number, chat: { id: number; title?: string }, target: AdminTarget): Promise<AccessChange> {
      switch (target.kind) {
        case 'user': {
          const person = { id: target.id, ...(target.label ? { label: target.label } : {}) };
          return action === 'allow' ? allowUser(by, person) : denyUser(by, person);
        }
        case 'group':
          return action === 'allow' ? allowGroup(by, chat) : denyGroup(by, chat.id);
        case 'usage':
          return target;
        default:
          // A bad id, a group's id, a forward without a person: refused, nothing changed.
          auditAccess(logger, { by, action, kind: target.kind === 'groupId' ? 'chat' : 'user', id: target.kind === 'groupId' ? target.id : undefined, outcome: 'refused', reason: target.kind });
          return target;
      }
    },
    /** A non-admin tried /allow or /deny: refused, and said so in the audit log. */
    refuse(action: 'allow' | 'deny', by: number) {
      auditAccess(logger, { by, action, kind: 'user', id: undefined, outcome: 'refused', reason: 'not an admin' });
    },
  };
};
export type AccessChanges = ReturnType<typeof createAccessChanges>;
