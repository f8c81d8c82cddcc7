import type { Grants } from '../access.ts';
import type { Awaitable } from './store.ts';

// Who admins allowed in the chat, and the access requests strangers sent them: shared by every
// replica. The allowed ids are also held in memory (access-cache.ts), since every update asks.

/** A user or a group an admin allowed: when, by whom, and a name to show when one was known. */
export type Grant = { id: number; addedAt: number; addedBy: number; label?: string };

export type NewGrant = { id: number; by: number; at: number; label?: string };

export type Decision = 'allow' | 'deny';

/** A stranger's request, as the admins are shown it; one per user, replaced at most once a day. */
export type AccessRequest = {
  id: number;
  userId: number;
  /** Where the stranger asked: their private chat, or a group. */
  chatId: number;
  chatTitle?: string;
  name: string;
  username?: string;
  languageCode?: string;
  createdAt: number;
  decision?: Decision;
  decidedBy?: number;
  /** How the admin who decided is named to the other admins. */
  decidedByName?: string;
  decidedAt?: number;
};

export type NewAccessRequest = Omit<AccessRequest, 'id' | 'createdAt' | 'decision' | 'decidedBy' | 'decidedByName' | 'decidedAt'>;

/** Who decides: the admin's id and name. */
export type Decider = { id: number; name: string };

export type OpenRequestResult = { ok: true; request: AccessRequest } | { ok: false; lastAt: number };

/** The first decision wins (a compare-and-set in the store); later ones get the request as decided. */
export type DecideResult = { won: true; request: AccessRequest } | { won: false; request?: AccessRequest };

/** An admin's copy of a request: the message edited once someone decided. */
export type RequestMessage = { chatId: number; messageId: number };

export type AccessStore = Grants & {
  users(): Awaitable<Grant[]>;
  chats(): Awaitable<Grant[]>;
  /** True when added; false when it was already there (kept as it was). */
  allowUser(grant: NewGrant): Awaitable<boolean>;
  /** True when removed; false when it was not there. */
  denyUser(userId: number): Awaitable<boolean>;
  allowChat(grant: NewGrant): Awaitable<boolean>;
  denyChat(chatId: number): Awaitable<boolean>;

  /**
   * Opens the user's request unless they opened one less than `perMs` ago (decided or not):
   * then `lastAt`. A new request gets a new id: a button of an older one decides nothing.
   */
  openRequest(request: NewAccessRequest, now: number, perMs: number): Awaitable<OpenRequestResult>;
  request(id: number): Awaitable<AccessRequest | undefined>;
  /** Decides the request if nobody did yet. */
  decide(id: number, decision: Decision, by: Decider, now: number): Awaitable<DecideResult>;
  addRequestMessage(requestId: number, message: RequestMessage): Awaitable<void>;
  requestMessages(requestId: number): Awaitable<RequestMessage[]>;
};
