import { parseDate, parseLookupValue, type OrderQuery, type SpecificationQuery } from './query.ts';

// What a pasted text names: SAP numbers, CRM ids, contract numbers, material codes and dates,
// read by one table of shapes (RECOGNISERS). A portal whose numbers look otherwise is one table
// to change. `loose` reading (a private chat, a mention, a reply to the bot) takes every shape;
// `strict` reading (a group's /autolookup, ordinary chatter) only the ones chatter rarely holds
// by chance: never a short number or a date.

export type Identifier =
  /** An order by its SAP number or CRM id: one record. */
  | { kind: 'order'; text: string; query: OrderQuery }
  /** The specifications of a contract. */
  | { kind: 'contract'; text: string; query: SpecificationQuery }
  /** A material code: orders and specifications with it. */
  | { kind: 'material'; text: string; code: string }
  /** A date: orders of that date, or specifications of production requests of that date. */
  | { kind: 'date'; text: string; date: string }
  /** Written as a date, but no such day (31.02.2026). */
  | { kind: 'badDate'; text: string };

export type Reading = 'loose' | 'strict';

/** A pasted text is read up to this many characters (one Telegram message). */
export const MAX_PASTED_LENGTH = 4096;
/** At most this many identifiers of one message are looked up; the rest are counted as not looked up. */
export const MAX_IDENTIFIERS = 10;

type Recogniser = {
  /** The shape, matched anywhere in the text that is not glued to other letters or digits. */
  shape: string;
  /** Read in strict reading too. */
  strict: boolean;
  /** What a match means; undefined when it is nothing after all. */
  read: (text: string) => Identifier | undefined;
  /** Not an identifier right after these words: tax ids, bank codes and phones are numbers too. */
  notAfter?: RegExp;
};

const order = (filter: OrderQuery['filter'], text: string): Identifier | undefined => {
  const value = parseLookupValue(filter, text);
  return value.ok ? { kind: 'order', text, query: { resource: 'order', filter, value: value.value } } : undefined;
};

const contract = (text: string): Identifier | undefined => {
  const value = parseLookupValue('CONTRACT_NUMBER', text);
  return value.ok ? { kind: 'contract', text, query: { resource: 'specification', filter: 'CONTRACT_NUMBER', value: value.value } } : undefined;
};

const material = (text: string): Identifier | undefined => {
  const value = parseLookupValue('POSITION[MATERIAL_SAP_ID]', text);
  return value.ok ? { kind: 'material', text, code: value.value } : undefined;
};

/** A real date; a day and month that could be a date but is none (31.02) is said to be none; anything else (1.0.12) is nothing. */
const date = (text: string): Identifier | undefined => {
  const iso = parseDate(text);
  if (iso !== undefined) return { kind: 'date', text, date: iso };
  const [first = 0, second = 0] = text.split(/[.-]/).map(Number);
  const [day, month] = text.includes('-') ? [Number(text.slice(8, 10)), second] : [first, second];
  return day >= 1 && day <= 31 && month >= 1 && month <= 12 ? { kind: 'badDate', text } : undefined;
};

const NOT_AN_ORDER = /(?:инн|кпп|бик|огрн|окпо|inn|тел|телефон|tel|phone|р\/с|к\/с|сч[её]т|account)[\s.:№#-]*$/iu;

/** The shapes, tried in this order: a longer or more specific one claims its text first. */
export const RECOGNISERS: readonly Recogniser[] = [
  { shape: String.raw`\d{4}-\d{2}-\d{2}|\d{1,2}\.\d{1,2}\.(?:\d{4}|\d{2})`, strict: false, read: date },
  { shape: String.raw`CRM-\d+(?:-\d+)*`, strict: true, read: (text) => order('CRM_ID', text) },
  // Cyrillic capitals (А–Я, Ё) as \u escapes: a raw string is bundled as written, and the bundle is ASCII only.
  { shape: String.raw`[\u0410-\u042F\u0401]{1,4}-\d{1,6}/(?:\d{4}|\d{2})(?:-[\u0410-\u042F\u0401]{1,4})?`, strict: true, read: contract },
  { shape: String.raw`\d{18}`, strict: true, read: material, notAfter: NOT_AN_ORDER },
  { shape: String.raw`\d{10}`, strict: true, read: (text) => order('SAP_ID', text), notAfter: NOT_AN_ORDER },
  { shape: String.raw`\d{6,9}`, strict: false, read: (text) => order('SAP_ID', text), notAfter: NOT_AN_ORDER },
];

// Not glued to a letter or digit, nor to a number by a separator (7300100-1, 15.03, 1/2).
const PATTERNS = RECOGNISERS.map(
  (recogniser) => new RegExp(String.raw`(?<![\p{L}\p{N}_]|\p{N}[.,/-])(?:${recogniser.shape})(?![\p{L}\p{N}_]|[.,/-]\p{N})`, 'giu'),
);

/** Parts of the text that are not the sender's words about records: mentions, links, commands. */
export type Span = { offset: number; length: number };

export type Recognised = {
  /** At most MAX_IDENTIFIERS, in the order the text names them, each once. */
  identifiers: Identifier[];
  /** How many more the text names. */
  more: number;
};

const keyOf = (identifier: Identifier): string => {
  switch (identifier.kind) {
    case 'order':
    case 'contract':
      return `${identifier.query.filter}\n${identifier.query.value}`;
    case 'material':
      return `material\n${identifier.code}`;
    case 'date':
      return `date\n${identifier.date}`;
    case 'badDate':
      return `badDate\n${identifier.text}`;
  }
};

/** The identifiers a text names, read `loose`ly or `strict`ly; `skip` blanks parts of it first. */
export const recognise = (text: string, reading: Reading, skip: readonly Span[] = []): Recognised => {
  let source = text.slice(0, MAX_PASTED_LENGTH);
  for (const { offset, length } of skip) source = source.slice(0, offset) + ' '.repeat(Math.max(0, Math.min(length, source.length - offset))) + source.slice(offset + length);
  const claimed: Span[] = [];
  const found: Array<{ at: number; identifier: Identifier }> = [];
  RECOGNISERS.forEach((recogniser, index) => {
    if (reading === 'strict' && !recogniser.strict) return;
    for (const match of source.matchAll(PATTERNS[index]!)) {
      const at = match.index;
      const end = at + match[0].length;
      if (claimed.some((span) => at < span.offset + span.length && span.offset < end)) continue;
      claimed.push({ offset: at, length: match[0].length });
      if (recogniser.notAfter?.test(source.slice(Math.max(0, at - 24), at))) continue;
      const identifier = recogniser.read(match[0]);
      if (identifier) found.push({ at, identifier });
    }
  });
  const seen = new Set<string>();
  const identifiers = found
    .sort((left, right) => left.at - right.at)
    .map((entry) => entry.identifier)
    .filter((identifier) => !seen.has(keyOf(identifier)) && Boolean(seen.add(keyOf(identifier))));
  return { identifiers: identifiers.slice(0, MAX_IDENTIFIERS), more: Math.max(0, identifiers.length - MAX_IDENTIFIERS) };
};
