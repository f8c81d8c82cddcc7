// The words of /digest: a time of day HH:MM (then `quiet`), or `off`.

export type DigestArgs = { kind: 'off' } | { kind: 'at'; minute: number; quiet: boolean } | { kind: 'badTime' | 'badWord'; given: string };

const OFF = new Set(['off', 'выкл', 'нет']);
const QUIET = new Set(['quiet', 'тихо']);
const TIME = /^(\d{1,2})[:.](\d{2})$/;
/** A bad argument is quoted back at most this long. */
const MAX_QUOTED = 40;

const bad = (kind: 'badTime' | 'badWord', given: string): DigestArgs => ({ kind, given: given.length > MAX_QUOTED ? `${given.slice(0, MAX_QUOTED)}…` : given });

/** `/digest 09:00`, `/digest 9:30 quiet`, `/digest off`; anything else is a bad time (`9`, `25:00`) or a bad word after it (`09:00 loud`). */
export const parseDigestArgs = (payload: string): DigestArgs => {
  const words = payload.trim().split(/\s+/).filter(Boolean);
  const [first = '', second, ...more] = words.map((word) => word.toLowerCase());
  if (OFF.has(first) && second === undefined) return { kind: 'off' };
  const time = TIME.exec(first);
  const hour = Number(time?.[1]);
  const minute = Number(time?.[2]);
  if (!time || hour > 23 || minute > 59) return bad('badTime', words[0] ?? '');
  if (more.length > 0 || (second !== undefined && !QUIET.has(second))) return bad('badWord', words.slice(1).join(' '));
  return { kind: 'at', minute: hour * 60 + minute, quiet: second !== undefined };
};
