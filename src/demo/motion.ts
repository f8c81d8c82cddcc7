import type { DemoData, DemoOrder, DemoSpecification } from './sample-data.ts';

// The real portal has no events and neither does the demo one, but watches need something to
// see: a few records move with the clock. What is served is a pure function of the time, in
// one-minute ticks counted from midnight UTC, so a moment always gives the same data and tests
// freeze or step time through the clock they pass. Tick 0 is the sample data as it is.

export const TICK_MS = 60_000;
const DAY_MS = 86_400_000;

/** A midnight UTC (tick 0): the day the e2e harness's bot clock shows. */
export const DEMO_EPOCH = Date.UTC(2026, 10, 23);

/** The records that move; every other one is served as the sample data has it. */
export const MOVING = {
  /** Status cycles one step a tick. */
  statusOrder: '0007300100',
  /** Its first position (Труба 530х8, in tonnes) is revised every third tick. */
  amountOrder: '0007300151',
  /** ДП-77/2026, specification 1: a planned date comes and goes, acts are added. */
  specification: '0040012345',
} as const;

const sinceMidnight = (now: number) => ((now % DAY_MS) + DAY_MS) % DAY_MS;

/** Minutes since midnight UTC: 0 … 1439. */
export const demoTick = (now: number): number => Math.floor(sinceMidnight(now) / TICK_MS);

const dayOf = (now: number) => new Date(now - sinceMidnight(now)).toISOString().slice(0, 10);
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const stamp = (day: string) => `${day} 00:00:00`;
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

// The sample order starts in production, the cycle's second step; 1440 ticks a day is a whole
// number of cycles, so midnight is one ordinary step too. «shipped» is a code the spec does not list.
const STATUS_CYCLE = [
  ['production_evaluation', 'Оценка производства'],
  ['production', 'Производство'],
  ['shipped', 'Отгружен'],
] as const;

const moveStatus = (order: DemoOrder, tick: number): DemoOrder => {
  if (tick % 3 === 0) return order;
  const [STATUS, STATUS_TEXT] = STATUS_CYCLE[(1 + tick) % 3] ?? STATUS_CYCLE[1];
  return { ...order, STATUS, STATUS_TEXT };
};

/** One pipe of Труба 530х8: 11.6 m at 103 kg/m, as the sample data builds it. */
const PIPE = { metres: 11.6, tonnes: 1.1948 };
const REVISION_STEPS = 4;

// The customer revises the order every third tick: five more pipes and the price per tonne one
// per cent up a step, then back to the sample after four steps. Totals stay consistent.
const moveAmounts = (order: DemoOrder, tick: number): DemoOrder => {
  const step = Math.floor(tick / 3) % REVISION_STEPS;
  const [first, ...rest] = order.POSITION ?? [];
  if (step === 0 || first === undefined) return order;
  const pipes = 5 * step;
  const revised = {
    ...first,
    QUANTITY: round((first.QUANTITY ?? 0) + pipes * PIPE.tonnes, 3),
    PRICE: round((first.PRICE ?? 0) * (1 + step / 100), 2),
  };
  const POSITION = [revised, ...rest];
  return {
    ...order,
    // A plain float sum, as the portal sends it.
    POSITION_SUM: POSITION.reduce((total, position) => total + (position.QUANTITY ?? 0) * (position.PRICE ?? 0), 0),
    POSITION_WEIGHT_TONN: (order.POSITION_WEIGHT_TONN ?? 0) + pipes * PIPE.tonnes,
    POSITION_METERS: (order.POSITION_METERS ?? 0) + pipes * PIPE.metres,
    POSITION_PIECES: (order.POSITION_PIECES ?? 0) + pipes,
    POSITION,
  };
};

const ACT_ID = 78_000;
const ACTS_KEPT = 3;

/** АКТ-<k> for every second tick k so far today, the last three, dated today. */
const actsAt = (tick: number, today: string) => {
  const last = tick - (tick % 2);
  const first = Math.max(2, last - 2 * (ACTS_KEPT - 1));
  return Array.from({ length: Math.max(0, (last - first) / 2 + 1) }, (_, i) => first + 2 * i).map((k) => ({
    ID: ACT_ID + k,
    NUMBER: `АКТ-${k}`,
    DATE: stamp(today),
  }));
};

// The first position is planned on odd ticks (a month from today) and unplanned on even ones.
const moveSpecification = (spec: DemoSpecification, tick: number, today: string): DemoSpecification => {
  const planned = tick % 2 === 1 ? stamp(addDays(today, 30)) : null;
  const POSITION = (spec.POSITION ?? []).map((position, k) => (k === 0 ? { ...position, DATE_PLANNED_PRODUCTION: planned } : position));
  const acts = actsAt(tick, today);
  return { ...spec, POSITION, ...(acts.length > 0 && { DOCUMENT_LIST: [...(spec.DOCUMENT_LIST ?? []), ...acts] }) };
};

/** The demo data at a moment (ms since the epoch): `base` with the moving records moved. */
export const demoDataAt = (base: DemoData, now: number): DemoData => {
  if (!Number.isFinite(now)) throw new RangeError(`the demo clock gave ${now}, not a time`);
  const tick = demoTick(now);
  if (tick === 0) return base;
  const today = dayOf(now);
  const moveOrder = (order: DemoOrder) => {
    const sapId = String(order.SAP_ID);
    if (sapId === MOVING.statusOrder) return moveStatus(order, tick);
    return sapId === MOVING.amountOrder ? moveAmounts(order, tick) : order;
  };
  return {
    orders: base.orders.map(moveOrder),
    specifications: base.specifications.map((spec) => (String(spec.SAP_ID) === MOVING.specification ? moveSpecification(spec, tick, today) : spec)),
  };
};
