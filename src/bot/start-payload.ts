// `/start` payloads that run a lookup in the bot's private chat: t.me/<bot>?start=find_<key>, the
// key of the query in the query store (src/store/query-store.ts). Telegram allows A-Z, a-z, 0-9, _
// and - in a payload, up to 64 characters; the key is base64url.

const PREFIX = 'find_';
const PAYLOAD = /^find_([A-Za-z0-9_-]{1,59})$/;

/** The deep link that opens the bot and runs the lookup stored under `key`. */
export const lookupLink = (me: string, key: string): string => `https://t.me/${me}?start=${PREFIX}${key}`;

/** The query key of a `/start` payload, or undefined when the payload is no lookup. */
export const lookupKeyOf = (payload: string): string | undefined => PAYLOAD.exec(payload.trim())?.[1];
