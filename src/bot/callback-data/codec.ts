import { z } from 'zod';
import { LOCALES, type Locale } from '../../i18n.ts';
import { isQueryValue, ORDER_FILTERS, PAGE_SIZES, SPECIFICATION_FILTERS, type PageSize, type Query, type Resource } from '../../query.ts';
import { RUSSIAN_ZONES } from '../../zone.ts';

// The one codec for inline-button data: printable ASCII, ≤ 64 bytes, checked when packing.
//   p:<limit>:<offset>:<ref>                   a results page        (pr: the same, refreshed)
//   r:<limit>:<offset>:<index>:<part>:<id>:<ref>  one record of a page, <id> its fingerprint (rr: refreshed)
//   x:<ref>                                    a new lookup (a cross-link)
//   l:<locale>  lg:<locale>  z:<page size>     settings: own language, the group's, page size
//   w:<ref>                                    watch a query (🔔 under results)
//   wr:<limit>:<offset>:<index>:<id>:<ref>     watch one record of a page (🔔 under a record)
//   u:<watch id>  wl:<offset>                  stop a watch; a page of the chat's watches
//   e:<ref>                                    export a query's records to Excel (📊, and its Try again)
//   n                                          the page indicator, which does nothing
//   qo:<limit>:<offset>:<index>:<id>:<ref>     one record of a page, as a new message (under pasted numbers)
//   qa:<1|0>                                   a group's /autolookup on or off (/settings)
//   ga  gh                                     a stranger asks for access; /start's "all commands"
//   gy:<request id>  gn:<request id>           an admin allows or denies an access request
//   mo:<limit>:<offset>:<index>:<page>:<id>:<ref>  the materials of a record to find orders with (ms: specifications), a page of them
//   dm:<watch id>:<a|s>  dd:<watch id>:<i|d>   a watch's all changes / status only; instantly / in the digest only
//   ds:<watch id>:<d|w|r>  dw:<watch id>:<offset>  snooze a watch 1 day / 1 week / resume; one watch's settings from the list
//   dg:<HHMM|off|c>  t:<zone index|c>          the chat's digest time, off, or the choice; its time zone (RUSSIAN_ZONES), or the choice
//   va:<p|g>                                   a group's answers private or public (/settings, issue 32)
//   vs:<limit>:<offset>:<ref>                  📣 a results page posted for everyone
//   vr:<limit>:<offset>:<index>:<part>:<id>:<ref>  📣 a record posted for everyone
// <ref> is `@<store key>` or `<o|s><filter index>=<value>` with the query's value inline.

export const CALLBACK_DATA_MAX_BYTES = 64;

export type QueryRef = { key: string } | { query: Query };
export type CallbackAction =
  | { type: 'page'; ref: QueryRef; limit: PageSize; offset: number; refresh: boolean }
  | { type: 'record'; ref: QueryRef; limit: PageSize; offset: number; index: number; part: number; id: string; refresh: boolean }
  | { type: 'lookup'; ref: QueryRef }
  | { type: 'language'; locale: Locale; scope: 'user' | 'chat' }
  | { type: 'pageSize'; pageSize: PageSize }
  | { type: 'watch'; ref: QueryRef }
  | { type: 'watchRecord'; ref: QueryRef; limit: PageSize; offset: number; index: number; id: string }
  | { type: 'unwatch'; watchId: number }
  | { type: 'watchList'; offset: number }
  | { type: 'export'; ref: QueryRef }
  | { type: 'noop' }
  | { type: 'openRecord'; ref: QueryRef; limit: PageSize; offset: number; index: number; id: string }
  | { type: 'autolookup'; on: boolean }
  | { type: 'requestAccess' }
  | { type: 'help' }
  | { type: 'decideAccess'; requestId: number; decision: 'allow' | 'deny' }
  | { type: 'materials'; resource: Resource; ref: QueryRef; limit: PageSize; offset: number; index: number; page: number; id: string }
  | { type: 'watchMode'; watchId: number; statusOnly: boolean }
  | { type: 'watchDelivery'; watchId: number; digestOnly: boolean }
  | { type: 'snooze'; watchId: number; span: SnoozeSpan }
  | { type: 'watchSettings'; watchId: number; offset: number }
  /** minute: the time of day (0–1439), null: off, 'choose': show the choice. */
  | { type: 'digest'; minute: number | null | 'choose' }
  /** zone: an index of RUSSIAN_ZONES, or 'choose': show the choice. */
  | { type: 'timeZone'; zone: number | 'choose' }
  | { type: 'answerMode'; mode: 'private' | 'public' }
  | { type: 'showPage'; ref: QueryRef; limit: PageSize; offset: number }
  | { type: 'showRecord'; ref: QueryRef; limit: PageSize; offset: number; index: number; part: number; id: string };

/** ⏸ for a day or a week, or ▶ at once. */
export type SnoozeSpan = 'day' | 'week' | 'resume';

const RESOURCE_CODES = { o: 'order', s: 'specification' } as const;
const FILTERS = { order: ORDER_FILTERS, specification: SPECIFICATION_FILTERS } as const;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
/** The longest text before a <ref>: a refreshed record at the largest numbers the codec takes. */
const LONGEST_PREFIX = 'rr:20:9999999:99:99:XXXXXX:';

const encodeRef = (ref: QueryRef): string => {
  if ('key' in ref) return `@${ref.key}`;
  const { resource, filter, value } = ref.query;
  const index = (FILTERS[resource] as readonly string[]).indexOf(filter);
  return `${resource === 'order' ? 'o' : 's'}${index}=${value}`;
};

const ref = z.string().transform((text, ctx): QueryRef => {
  const stored = /^@([\w-]{1,24})$/.exec(text);
  if (stored?.[1]) return { key: stored[1] };
  const inline = /^([os])(\d)=(.+)$/s.exec(text);
  const resource = inline ? RESOURCE_CODES[inline[1] as 'o' | 's'] : undefined;
  const filter = resource ? FILTERS[resource][Number(inline?.[2])] : undefined;
  const value = inline?.[3] ?? '';
  // Exactly the value a typed command would give: a button is no way around its checks.
  if (!resource || !filter || !PRINTABLE_ASCII.test(value) || !isQueryValue(filter, value)) {
    ctx.addIssue({ code: 'custom', message: 'not a query reference' });
    return z.NEVER;
  }
  return { query: { resource, filter, value } as Query };
});

// Numbers only as the codec writes them: `5`, never `05`, `5.0`, `0x5` or `1e1`.
const pageSize = z
  .string()
  .regex(/^[1-9]\d?$/)
  .transform(Number)
  .pipe(z.union(PAGE_SIZES.map((size) => z.literal(size))));
const whole = (digits: number) => z.string().regex(new RegExp(`^(0|[1-9]\\d{0,${digits - 1}})$`)).transform(Number);
const locale = z.enum(LOCALES);
const recordId = z.string().regex(/^[\w-]{6}$/);
/** "0900": a time of day as minutes since midnight. */
const timeOfDay = z
  .string()
  .regex(/^([01]\d|2[0-3])[0-5]\d$/)
  .transform((hhmm) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(2)));
const SPANS = { d: 'day', w: 'week', r: 'resume' } as const;
const SPAN_CODES = { day: 'd', week: 'w', resume: 'r' } as const;
const pad2 = (value: number) => String(value).padStart(2, '0');

/** Each action's fields after its tag, in order; the last field may hold colons (a <ref>). */
const LAYOUTS = {
  p: z.tuple([pageSize, whole(7), ref]).transform(([limit, offset, r]) => ({ type: 'page' as const, limit, offset, ref: r, refresh: false })),
  pr: z.tuple([pageSize, whole(7), ref]).transform(([limit, offset, r]) => ({ type: 'page' as const, limit, offset, ref: r, refresh: true })),
  r: z
    .tuple([pageSize, whole(7), whole(2), whole(2), recordId, ref])
    .transform(([limit, offset, index, part, id, r]) => ({ type: 'record' as const, limit, offset, index, part, id, ref: r, refresh: false })),
  rr: z
    .tuple([pageSize, whole(7), whole(2), whole(2), recordId, ref])
    .transform(([limit, offset, index, part, id, r]) => ({ type: 'record' as const, limit, offset, index, part, id, ref: r, refresh: true })),
  x: z.tuple([ref]).transform(([r]) => ({ type: 'lookup' as const, ref: r })),
  l: z.tuple([locale]).transform(([l]) => ({ type: 'language' as const, locale: l, scope: 'user' as const })),
  lg: z.tuple([locale]).transform(([l]) => ({ type: 'language' as const, locale: l, scope: 'chat' as const })),
  z: z.tuple([pageSize]).transform(([size]) => ({ type: 'pageSize' as const, pageSize: size })),
  w: z.tuple([ref]).transform(([r]) => ({ type: 'watch' as const, ref: r })),
  wr: z
    .tuple([pageSize, whole(7), whole(2), recordId, ref])
    .transform(([limit, offset, index, id, r]) => ({ type: 'watchRecord' as const, limit, offset, index, id, ref: r })),
  u: z.tuple([whole(10)]).transform(([watchId]) => ({ type: 'unwatch' as const, watchId })),
  wl: z.tuple([whole(7)]).transform(([offset]) => ({ type: 'watchList' as const, offset })),
  e: z.tuple([ref]).transform(([r]) => ({ type: 'export' as const, ref: r })),
  qo: z
    .tuple([pageSize, whole(7), whole(2), recordId, ref])
    .transform(([limit, offset, index, id, r]) => ({ type: 'openRecord' as const, limit, offset, index, id, ref: r })),
  qa: z.tuple([z.enum(['1', '0'])]).transform(([on]) => ({ type: 'autolookup' as const, on: on === '1' })),
  ga: z.tuple([]).transform(() => ({ type: 'requestAccess' as const })),
  gh: z.tuple([]).transform(() => ({ type: 'help' as const })),
  gy: z.tuple([whole(15)]).transform(([requestId]) => ({ type: 'decideAccess' as const, requestId, decision: 'allow' as const })),
  gn: z.tuple([whole(15)]).transform(([requestId]) => ({ type: 'decideAccess' as const, requestId, decision: 'deny' as const })),
  mo: z
    .tuple([pageSize, whole(7), whole(2), whole(2), recordId, ref])
    .transform(([limit, offset, index, page, id, r]) => ({ type: 'materials' as const, resource: 'order' as const, limit, offset, index, page, id, ref: r })),
  ms: z
    .tuple([pageSize, whole(7), whole(2), whole(2), recordId, ref])
    .transform(([limit, offset, index, page, id, r]) => ({ type: 'materials' as const, resource: 'specification' as const, limit, offset, index, page, id, ref: r })),
  dm: z.tuple([whole(10), z.enum(['a', 's'])]).transform(([watchId, mode]) => ({ type: 'watchMode' as const, watchId, statusOnly: mode === 's' })),
  dd: z.tuple([whole(10), z.enum(['i', 'd'])]).transform(([watchId, delivery]) => ({ type: 'watchDelivery' as const, watchId, digestOnly: delivery === 'd' })),
  ds: z.tuple([whole(10), z.enum(['d', 'w', 'r'])]).transform(([watchId, span]) => ({ type: 'snooze' as const, watchId, span: SPANS[span] })),
  dw: z.tuple([whole(10), whole(7)]).transform(([watchId, offset]) => ({ type: 'watchSettings' as const, watchId, offset })),
  dg: z.tuple([z.union([z.literal('off'), z.literal('c'), timeOfDay])]).transform(([value]) => ({
    type: 'digest' as const,
    minute: value === 'off' ? null : value === 'c' ? ('choose' as const) : value,
  })),
  t: z.tuple([z.union([z.literal('c'), whole(2).pipe(z.number().max(RUSSIAN_ZONES.length - 1))])]).transform(([zone]) => ({
    type: 'timeZone' as const,
    zone: zone === 'c' ? ('choose' as const) : zone,
  })),
  va: z.tuple([z.enum(['p', 'g'])]).transform(([mode]) => ({ type: 'answerMode' as const, mode: mode === 'p' ? ('private' as const) : ('public' as const) })),
  vs: z.tuple([pageSize, whole(7), ref]).transform(([limit, offset, r]) => ({ type: 'showPage' as const, limit, offset, ref: r })),
  vr: z
    .tuple([pageSize, whole(7), whole(2), whole(2), recordId, ref])
    .transform(([limit, offset, index, part, id, r]) => ({ type: 'showRecord' as const, limit, offset, index, part, id, ref: r })),
} satisfies Record<string, z.ZodType<CallbackAction>>;

const encode = (action: CallbackAction): string => {
  switch (action.type) {
    case 'page':
      return `${action.refresh ? 'pr' : 'p'}:${action.limit}:${action.offset}:${encodeRef(action.ref)}`;
    case 'record':
      return `${action.refresh ? 'rr' : 'r'}:${action.limit}:${action.offset}:${action.index}:${action.part}:${action.id}:${encodeRef(action.ref)}`;
    case 'lookup':
      return `x:${encodeRef(action.ref)}`;
    case 'language':
      return `${action.scope === 'chat' ? 'lg' : 'l'}:${action.locale}`;
    case 'pageSize':
      return `z:${action.pageSize}`;
    case 'watch':
      return `w:${encodeRef(action.ref)}`;
    case 'watchRecord':
      return `wr:${action.limit}:${action.offset}:${action.index}:${action.id}:${encodeRef(action.ref)}`;
    case 'unwatch':
      return `u:${action.watchId}`;
    case 'watchList':
      return `wl:${action.offset}`;
    case 'export':
      return `e:${encodeRef(action.ref)}`;
    case 'noop':
      return 'n';
    case 'openRecord':
      return `qo:${action.limit}:${action.offset}:${action.index}:${action.id}:${encodeRef(action.ref)}`;
    case 'autolookup':
      return `qa:${action.on ? 1 : 0}`;
    case 'requestAccess':
      return 'ga';
    case 'help':
      return 'gh';
    case 'decideAccess':
      return `${action.decision === 'allow' ? 'gy' : 'gn'}:${action.requestId}`;
    case 'materials':
      return `${action.resource === 'order' ? 'mo' : 'ms'}:${action.limit}:${action.offset}:${action.index}:${action.page}:${action.id}:${encodeRef(action.ref)}`;
    case 'watchMode':
      return `dm:${action.watchId}:${action.statusOnly ? 's' : 'a'}`;
    case 'watchDelivery':
      return `dd:${action.watchId}:${action.digestOnly ? 'd' : 'i'}`;
    case 'snooze':
      return `ds:${action.watchId}:${SPAN_CODES[action.span]}`;
    case 'watchSettings':
      return `dw:${action.watchId}:${action.offset}`;
    case 'digest':
      return `dg:${action.minute === null ? 'off' : action.minute === 'choose' ? 'c' : `${pad2(Math.floor(action.minute / 60))}${pad2(action.minute % 60)}`}`;
    case 'timeZone':
      return `t:${action.zone === 'choose' ? 'c' : action.zone}`;
    case 'answerMode':
      return `va:${action.mode === 'private' ? 'p' : 'g'}`;
    case 'showPage':
      return `vs:${action.limit}:${action.offset}:${encodeRef(action.ref)}`;
    case 'showRecord':
      return `vr:${action.limit}:${action.offset}:${action.index}:${action.part}:${action.id}:${encodeRef(action.ref)}`;
  }
};

export const packCallback = (action: CallbackAction): string => {
  const data = encode(action);
  // Printable ASCII is a byte a character: its length is its size.
  if (!PRINTABLE_ASCII.test(data) || data.length > CALLBACK_DATA_MAX_BYTES) {
    throw new RangeError(`callback data must be printable ASCII of at most ${CALLBACK_DATA_MAX_BYTES} bytes: ${data}`);
  }
  return data;
};

/** Whatever a client sends: a forged or outdated button decodes to undefined, never throws. */
export const unpackCallback = (data: string | undefined): CallbackAction | undefined => {
  if (data === 'n') return { type: 'noop' };
  const [tag = '', ...rest] = (data ?? '').split(':');
  if (!Object.hasOwn(LAYOUTS, tag)) return undefined;
  const layout = LAYOUTS[tag as keyof typeof LAYOUTS];
  // The fields before the last are single; the last takes the rest, colons and all.
  const arity = layout.in.def.items.length;
  // A tag without fields takes none: anything after it is not its data.
  const fields = arity === 0 ? rest : [...rest.slice(0, arity - 1), rest.slice(arity - 1).join(':')];
  if (rest.length < arity) return undefined;
  const parsed = layout.safeParse(fields);
  return parsed.success ? parsed.data : undefined;
};

/** The query fits inside any button that refers to it, as ASCII; else it goes to the store. */
export const canInline = (query: Query): boolean =>
  PRINTABLE_ASCII.test(query.value) &&
  Buffer.byteLength(`${LONGEST_PREFIX}${encodeRef({ query })}`, 'utf8') <= CALLBACK_DATA_MAX_BYTES;
