import type { z } from 'zod';
import type { orderSchema, specificationSchema } from '../portal/schemas.ts';

// Sample records of a pipe manufacturer in the raw wire shape of the portal, generated from
// compact tables so that every number is consistent (pieces → metres → tonnes → money) and the
// result is the same on every run.

export type DemoOrder = z.input<typeof orderSchema>;
export type DemoSpecification = z.input<typeof specificationSchema>;
export type DemoData = { orders: readonly DemoOrder[]; specifications: readonly DemoSpecification[] };

type Material = { code: string; name: string; kind: 'pipe' | 'part'; kg: number; length: number; pricePerTonne: number };
const material = (code: string, name: string, kind: Material['kind'], kg: number, length: number, pricePerTonne: number) => ({
  code: `0000000000${code}`,
  name,
  kind,
  kg,
  length,
  pricePerTonne,
});

// kg is per metre for pipes and per piece for parts; length is one pipe, in metres.
const MATERIALS: Record<string, Material> = {
  a: material('10012345', 'Труба 530х8 К52 ГОСТ 20295-85', 'pipe', 103.0, 11.6, 118_500),
  b: material('10012346', 'Труба э/с 133х4,5', 'pipe', 14.26, 12, 96_400),
  c: material('10013001', 'Труба 1020х12 "К60" <ТУ 1381-012>', 'pipe', 298.3, 11.7, 132_700),
  d: material('10014410', 'Отвод 90° 530х10 Ст20 & ОЦ', 'part', 187.5, 0, 164_000),
  e: material('10012360', 'Труба 219x6 ст.20 ГОСТ 10705-80', 'pipe', 31.52, 11.5, 101_200), // Latin x, as typed in SAP
  f: material('10012371', 'Труба б/ш 159х6 09Г2С ГОСТ 8732-78', 'pipe', 22.64, 10, 143_900),
  g: material('10012380', 'Труба ВГП 32х3,2 ГОСТ 3262-75', 'pipe', 2.39, 6, 112_000),
  h: material('10015120', 'Труба профильная 100х100х4 С245 ГОСТ 30245-2003', 'pipe', 11.73, 12, 99_800),
  i: material('10013010', 'Труба 720х10 К56 ТУ 1381-011-2015', 'pipe', 175.0, 11.8, 124_300),
  j: material('10013020', 'Труба 1420х21,6 К60 ТУ 14-3Р-04-94', 'pipe', 744.0, 11.6, 158_000),
  k: material('10014420', 'Заглушка эллиптическая 530х8 Ст20', 'part', 21.5, 0, 171_000),
  l: material('10014430', 'Переход К 530х426 Ст20 ГОСТ 17378-2001', 'part', 48.0, 0, 168_500),
};

// KMT (kilometre) is a real SAP unit the bot does not map: the "unknown code" case.
const MEASURES: Record<string, string> = { T: 'TO', N: 'TNE', M: 'M', R: 'MTR', S: 'ST', K: 'KG', X: 'KMT' };
const USD_RATE = 92.35;

/** A fixed, well-mixed integer in [0, range) for a seed: variety without randomness. */
const spread = (seed: number, range: number) => (Math.imul(seed + 1, 2654435761) >>> 0) % range;
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const pad = (value: number, width: number) => String(value).padStart(width, '0');
const stamp = (date: string) => `${date} 00:00:00`;
const addDays = (date: string, days: number) => {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
};

// Orders, oldest first: date, status (p = production, e = production_evaluation, x = a code the
// spec does not list), positions as material letter + measure letter ('*' = sixty positions),
// and 'mix' where some positions are priced in USD.
const ORDER_ROWS: [date: string, status: string, positions: string, currency?: 'mix'][] = [
  ['2025-11-18', 'p', 'aT fM'],
  ['2025-12-02', 'p', 'aN dS kS'],
  ['2025-12-16', 'e', 'cT jT'],
  ['2026-01-21', 'p', 'aT bR gM'],
  ['2026-01-29', 'p', 'aT iT dS lS'],
  ['2026-02-10', 'e', 'eM hM'],
  ['2026-02-10', 'p', 'aT'],
  ['2026-02-24', 'p', 'aN bM fS'],
  ['2026-03-03', 'x', 'gR hS'],
  ['2026-03-03', 'p', 'aT cT jT'],
  ['2026-03-10', 'e', 'aX kK'],
  ['2026-03-15', 'p', 'aT bM'],
  ['2026-03-15', 'p', 'aT dS kS lS'],
  ['2026-03-15', 'p', '*'],
  ['2026-03-15', 'p', 'aT eM fS bM', 'mix'],
  ['2026-03-15', 'e', 'aN'],
  ['2026-03-15', 'p', 'aT bM cT dS eM fS gR hS'],
  ['2026-03-15', 'p', 'aT iT'],
  ['2026-03-15', 'e', 'aT jT cT'],
  ['2026-03-15', 'p', 'aN kS'],
  ['2026-03-15', 'p', 'aT fR'],
  ['2026-03-15', 'p', 'aT hM gM'],
  ['2026-03-20', 'e', 'bR eR'],
  ['2026-03-27', 'p', 'aT dK'],
  ['2026-04-01', 'p', 'aN bM'],
  ['2026-04-01', 'e', 'iT jT'],
  ['2026-04-08', 'p', 'aT cN lS'],
  ['2026-04-14', 'p', 'aT eM hS'],
  ['2026-04-20', 'e', 'fM gM'],
  ['2026-04-22', 'p', 'aT bM kS dS'],
];

const STATUSES: Record<string, [code: string, text: string]> = {
  p: ['production', 'Производство'],
  e: ['production_evaluation', 'Оценка производства'],
  x: ['shipment_ready', ''],
};

const sixtyPositions = () =>
  Array.from({ length: 60 }, (_, k) => {
    const letter = 'abcdefghijkl'[k % 12] ?? 'a';
    const kind = MATERIALS[letter]?.kind;
    return letter + (kind === 'part' ? 'SK'[k % 2] : 'TMSNR'[k % 5]);
  }).join(' ');

const buildPosition = (token: string, seed: number, usd: boolean) => {
  const item = MATERIALS[token[0] ?? 'a'] ?? (MATERIALS.a as Material);
  const measure = MEASURES[token[1] ?? 'T'] ?? 'TO';
  const pieces = item.kind === 'pipe' ? 4 + spread(seed, 90) : 2 + spread(seed, 24);
  const metres = item.kind === 'pipe' ? round(pieces * item.length, 2) : 0;
  const tonnes = round(item.kind === 'pipe' ? (metres * item.kg) / 1000 : (pieces * item.kg) / 1000, 3);
  const quantity: Record<string, number> = {
    TO: tonnes,
    TNE: tonnes,
    M: metres,
    MTR: metres,
    ST: pieces,
    KG: round(tonnes * 1000, 0),
    KMT: round(metres / 1000, 3),
  };
  const amount = (quantity[measure] ?? pieces) || 1;
  const perTonne = item.pricePerTonne + spread(seed + 7, 9) * 500;
  const priceRub = (perTonne * tonnes) / amount;
  return {
    line: { item, measure, quantity: amount, price: round(usd ? priceRub / USD_RATE : priceRub, 2), currency: usd ? 'USD' : 'RUB' },
    pieces,
    metres,
    tonnes,
  };
};

const buildOrder = ([date, statusKey, tokens, currency]: (typeof ORDER_ROWS)[number], index: number) => {
  const [status, statusText] = STATUSES[statusKey] ?? ['production', 'Производство'];
  const built = (tokens === '*' ? sixtyPositions() : tokens)
    .split(' ')
    .map((token, k) => buildPosition(token, index * 31 + k * 7, currency === 'mix' && k % 2 === 1));
  const POSITION = built.map(({ line }, k) => ({
    ID: 880_001 + index * 100 + k,
    QUANTITY: line.quantity,
    MEASURE: line.measure,
    PRICE: line.price,
    CURRENCY: line.currency,
    MATERIAL_SAP_ID: line.item.code,
    MATERIAL_NAME: line.item.name,
    ORDER_POSITION_SAP_ID: pad((k + 1) * 10, 6),
  }));
  // Plain float sums, as the portal sends them: long fractional tails included.
  const sum = POSITION.reduce((total, position) => total + position.QUANTITY * position.PRICE, 0);
  return {
    SAP_ID: pad(7_300_100 + 17 * index, 10),
    CRM_ID: `CRM-${date.slice(0, 4)}-${pad(4290 + 37 * index, 6)}`,
    DATE_ORDER: stamp(date),
    STATUS: status,
    STATUS_TEXT: statusText,
    PREPAYMENT: index === 16 ? 1234567.8900000001 : statusKey === 'e' ? 0 : round(sum * 0.3, 2),
    POSITION_SUM: sum,
    POSITION_METERS: built.reduce((total, position) => total + position.metres, 0),
    POSITION_PIECES: built.reduce((total, position) => total + position.pieces, 0),
    POSITION_WEIGHT_TONN: built.reduce((total, position) => total + position.tonnes, 0),
    POSITION,
  };
};

const orders = ORDER_ROWS.map(buildOrder);

const CONTRACTS: [number: string, date: string][] = [
  ['ДП-77/2026', '2026-01-20'],
  ['ДП-112/2025', '2025-11-05'],
  ['ПС-15/2026', '2026-02-02'],
  ['Д-0412/25-ТР', '2025-10-14'],
  ['ДП-9/2026', '2026-03-01'],
  ['ДП-77/2025', '2025-09-12'],
  ['СП-204/2026', '2026-02-16'],
];

const CONSIGNEES = [
  'ООО «Уралтрубмонтаж»',
  'АО «Северная нефтяная компания»',
  'ООО «СпецСтрой & Ко»',
  'ООО «ТрубопроводСтрой»',
  'АО «Волжский терминал»',
];

// Specifications: contract index, specification number, position materials, related orders
// (indices into ORDER_ROWS, '-' = none, a trailing '?' marks an element with an empty NUMBER).
const SPECIFICATION_ROWS: [contract: number, number: string, positions: string, orders: string][] = [
  [0, '1', 'a f', '3 4'],
  [0, '2', 'a b g', '6'],
  [0, '3', 'c j', '9 11'],
  [0, '4', 'a d k', '12 13'],
  [0, '5', 'e h', '-'],
  [0, '6', 'a', '16 17 18'],
  [0, '7', 'a i', '20?'],
  [0, '8', 'b c', '-'],
  [1, '10', 'a d', '0'],
  [1, '11', 'f', '1'],
  [1, '12', 'a c j', '2 9'],
  [1, '13', 'k l', '-'],
  [2, '1', 'e h b', '5 22'],
  [2, '2', 'a', '14 15'],
  [2, '3-А', 'g h', '-'],
  [3, '1', 'c j', '2'],
  [3, '2', 'a l', '-'],
  [3, '3', 'i', '25'],
  [4, '1', 'a b', '19 21'],
  [4, '2', 'a f', '23 24'],
  [4, '3', 'c i l', '26'],
  [5, '1', 'a', '-'],
  [5, '2', 'g', '-'],
  [6, '1', 'a e h', '27 29'],
  [6, '2', 'f g', '28'],
];

const SPECIFICATION_STATUSES = ['10', '15', '20', '30', '40', '50', '60', '70'];
const STATUS_TYPES = ['ZSD_DOG', 'ZSDZNM', 'ZSDZMP'];

const relatedOrders = (refs: string) =>
  refs === '-'
    ? null
    : refs.split(' ').map((ref) => {
        const index = Number.parseInt(ref, 10);
        const order = orders[index] ?? orders[0];
        return {
          ID: 61_000 + index,
          NUMBER: ref.endsWith('?') ? '' : (order?.CRM_ID ?? ''),
          DATE_ORDER: order?.DATE_ORDER ?? null,
          SAP_ID: order?.SAP_ID ?? '',
        };
      });

const buildSpecification = ([contractIndex, number, letters, refs]: (typeof SPECIFICATION_ROWS)[number], index: number) => {
  const [contract, contractDate] = CONTRACTS[contractIndex] ?? ['ДП-77/2026', '2026-01-20'];
  const status = SPECIFICATION_STATUSES[(index * 5) % 8] ?? '10';
  const activeFrom = addDays(contractDate, 7 + 9 * Number.parseInt(number, 10));
  const planned = Number(status) >= 30;
  const POSITION = letters.split(' ').map((letter, k) => {
    const item = MATERIALS[letter] ?? (MATERIALS.a as Material);
    return {
      ID: 920_000 + index * 10 + k,
      PID_ID: '',
      MATERIAL_SAP_ID: item.code,
      MATERIAL_NAME: item.name,
      DATE_PLANNED_PRODUCTION: planned && k !== 2 ? stamp(addDays(activeFrom, 30 + 14 * k)) : null,
      SPECIFICATION_POSITION_SAP_ID: pad((k + 1) * 10, 6),
    };
  });
  const weight = POSITION.reduce((total, _, k) => total + 40.15 + spread(index * 11 + k, 400) * 0.85, 0);
  const documents = [
    { ID: 7_700 + index * 3, NUMBER: `ДС-${number} к ${contract}`, DATE: stamp(activeFrom) },
    { ID: 7_701 + index * 3, NUMBER: `Сч-${pad(1204 + index * 13, 6)}`, DATE: stamp(addDays(activeFrom, 3)) },
  ].slice(0, 1 + (index % 2));
  const consignees = [CONSIGNEES[index % 5], CONSIGNEES[index % 5], CONSIGNEES[(index + 2) % 5]].slice(0, 1 + (index % 3));
  return {
    SAP_ID: pad(40_012_345 + 9 * index, 10),
    SPECIFICATION_NUMBER: number,
    CONTRACT_NUMBER: contract,
    CONTRACT_DATE: stamp(contractDate),
    PLANNED_WEIGHT_TONN: weight,
    PREPAYMENT: index % 4 === 3 ? 0 : weight * 118_500 * 0.3,
    STATUS: status,
    STATUS_TYPE: STATUS_TYPES[index % 3] ?? 'ZSD_DOG',
    DATE_ACTIVE_FROM: stamp(activeFrom),
    DATE_ACTIVE_TO: index % 4 === 0 ? '9999-12-31 00:00:00' : stamp(`${activeFrom.slice(0, 4)}-12-31`),
    DELIVERY: index % 3 === 1 ? null : consignees.map((name) => ({ CONSIGNEE_SHORT_NAME: name ?? '' })),
    DOCUMENT: index % 4 === 2 ? null : documents,
    ...(index % 5 === 0 && {
      DOCUMENT_LIST: [
        ...documents,
        { ID: 7_790 + index, NUMBER: `УПД-${pad(311 + index, 5)}`, DATE: stamp(addDays(activeFrom, 20)) },
      ],
    }),
    ORDER: relatedOrders(refs),
    POSITION,
  };
};

export const sampleData: DemoData = {
  orders,
  specifications: SPECIFICATION_ROWS.map(buildSpecification),
};
