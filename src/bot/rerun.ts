import { packCallback, unpackCallback, type QueryRef } from './callback-data/codec.ts';

// A lookup as a /start payload (issue 32): the button of the note in a group whose answer could not
// reach the user opens the private chat with it, and /start runs the lookup there. The payload is
// a cross-link's callback data in base64url (Telegram allows A–Z, a–z, 0–9, _ and -, up to 64).

/** The /start payload that runs a lookup (a cross-link's data, base64url): `v` and at most 63 more characters. */
const RERUN_PREFIX = 'v';
const START_PAYLOAD_MAX = 64;

/** The /start payload that runs the lookup of `ref`, or undefined when it does not fit. */
export const rerunPayload = (ref: QueryRef): string | undefined => {
  let data: string;
  try {
    data = packCallback({ type: 'lookup', ref });
  } catch {
    return undefined; // no button could carry it either: the store's key will
  }
  const payload = RERUN_PREFIX + Buffer.from(data).toString('base64url');
  return payload.length <= START_PAYLOAD_MAX ? payload : undefined;
};

/** The lookup a /start payload asks for, or undefined for anything else. */
export const rerunOf = (payload: string): QueryRef | undefined => {
  if (!payload.startsWith(RERUN_PREFIX) || !/^[A-Za-z0-9_-]{2,64}$/.test(payload)) return undefined;
  const action = unpackCallback(Buffer.from(payload.slice(RERUN_PREFIX.length), 'base64url').toString('latin1'));
  return action?.type === 'lookup' ? action.ref : undefined;
};
