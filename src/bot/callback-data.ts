import { z } from 'zod';
import { ORDER_FILTERS, PAGE_SIZES, SPECIFICATION_FILTERS, type PageSize, type Query } from '../portal/query.ts';

// The one codec for inline-button data. ASCII only, ≤ 64 bytes, checked when packing:
//   p:<limit>:<offset>:<ref>   a results page; <ref> is `@<store key>` or `<o|s><filter index>=<value>`
//   n                          the page indicator, which does nothing

export const CALLBACK_DATA_MAX_BYTES = 64;

export type QueryRef = { key: string } | { query: Query };
export type CallbackAction = { type: 'page'; ref: QueryRef; limit: PageSize; offset: number } | { type: 'noop' };

const RESOURCE_CODES = { o: 'order', s: 'specification' } as const;
const FILTERS = { order: ORDER_FILTERS, specification: SPECIFICATION_FILTERS } as const;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

const encodeRef = (ref: QueryRef): string => {
  if ('key' in ref) return `@${ref.key}`;
  const { resource, filter, value } = ref.query;
  const index = (FILTERS[resource] as readonly string[]).indexOf(filter);
  return `${resource === 'order' ? 'o' : 's'}${index}=${value}`;
};

const refSchema = z.string().transform((text, ctx): QueryRef => {
  const stored = /^@([\w-]{1,24})$/.exec(text);
  if (stored?.[1]) return { key: stored[1] };
  const inline = /^([os])(\d)=(.+)$/s.exec(text);
  const resource = inline ? RESOURCE_CODES[inline[1] as 'o' | 's'] : undefined;
  const filter = resource ? FILTERS[resource][Number(inline?.[2])] : undefined;
  if (!resource || !filter || !inline?.[3] || !PRINTABLE_ASCII.test(inline[3])) {
    ctx.addIssue({ code: 'custom', message: 'not a query reference' });
    return z.NEVER;
  }
  return { query: { resource, filter, value: inline[3] } as Query };
});

const pageSchema = z.tuple([
  z.literal('p'),
  z.coerce.number().pipe(z.union(PAGE_SIZES.map((size) => z.literal(size)))),
  z.string().regex(/^\d{1,7}$/).transform(Number),
  refSchema,
]);

export const packCallback = (action: CallbackAction): string => {
  const data = action.type === 'noop' ? 'n' : `p:${action.limit}:${action.offset}:${encodeRef(action.ref)}`;
  if (Buffer.byteLength(data, 'utf8') > CALLBACK_DATA_MAX_BYTES || !PRINTABLE_ASCII.test(data)) {
    throw new RangeError(`callback data must be printable ASCII of at most ${CALLBACK_DATA_MAX_BYTES} bytes: ${data}`);
  }
  return data;
};

/** Whatever a client sends: a forged or outdated button decodes to undefined, never throws. */
export const unpackCallback = (data: string | undefined): CallbackAction | undefined => {
  if (data === 'n') return { type: 'noop' };
  if (!data?.startsWith('p:')) return undefined;
  const parts = data.split(':');
  const parsed = pageSchema.safeParse([parts[0], parts[1], parts[2], parts.slice(3).join(':')]);
  if (!parsed.success) return undefined;
  const [, limit, offset, ref] = parsed.data;
  return { type: 'page', limit: limit as PageSize, offset, ref };
};

/** The query inside the button when it fits there as ASCII, else a reference to the store. */
export const canInline = (query: Query): boolean => {
  if (!PRINTABLE_ASCII.test(query.value)) return false;
  const worst = `p:20:9999999:${encodeRef({ query })}`;
  return Buffer.byteLength(worst, 'utf8') <= CALLBACK_DATA_MAX_BYTES;
};
