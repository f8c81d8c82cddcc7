import { describe, expect, it } from 'vitest';
import { DEMO_EPOCH, demoDataAt, demoTick, MOVING, TICK_MS } from '../../src/demo/motion.ts';
import { sampleData } from '../../src/demo/sample-data.ts';
import { orderSchema, specificationSchema } from '../../src/portal/schemas.ts';

const at = (tick: number, day = DEMO_EPOCH) => demoDataAt(sampleData, day + tick * TICK_MS);
const orderAt = (tick: number, sapId: string) => at(tick).orders.find((order) => order.SAP_ID === sapId);
const specAt = (tick: number) => at(tick).specifications.find((spec) => spec.SAP_ID === MOVING.specification);
const sampleOrder = (sapId: string) => sampleData.orders.find((order) => order.SAP_ID === sapId);
const movingIds: string[] = Object.values(MOVING);
const DAY_TICKS = 1440;

describe('demo clock', () => {
  it('counts one tick a minute from midnight UTC', () => {
    expect(demoTick(DEMO_EPOCH)).toBe(0);
    expect(demoTick(DEMO_EPOCH + 59_999)).toBe(0);
    expect(demoTick(DEMO_EPOCH + 60_000)).toBe(1);
    expect(demoTick(Date.parse('2026-11-23T11:05:30Z'))).toBe(665);
    expect(demoTick(Date.parse('2026-11-23T23:59:59Z'))).toBe(1439);
    expect(demoTick(Date.parse('2026-11-24T00:00:00Z'))).toBe(0);
  });

  it('serves the sample data itself at tick 0, on any day', () => {
    expect(at(0)).toBe(sampleData);
    expect(demoDataAt(sampleData, DEMO_EPOCH + 59_999)).toBe(sampleData);
    expect(demoDataAt(sampleData, Date.parse('2027-03-01T00:00:10Z'))).toBe(sampleData);
  });

  it('is deterministic: the same moment gives the same data', () => {
    for (const tick of [1, 2, 3, 7, 665, 1439]) expect(JSON.stringify(at(tick))).toBe(JSON.stringify(at(tick)));
    expect(JSON.stringify(demoDataAt(sampleData, DEMO_EPOCH + 90_500))).toBe(JSON.stringify(at(1)));
  });

  it('refuses a clock that gives no time', () => {
    expect(() => demoDataAt(sampleData, Number.NaN)).toThrow(RangeError);
  });
});

describe('moving records', () => {
  it(`${MOVING.statusOrder}: the status steps production → shipped → production assessment → production, a tick each`, () => {
    const statuses = [0, 1, 2, 3, 4, 5].map((tick) => {
      const order = orderAt(tick, MOVING.statusOrder);
      return `${order?.STATUS} ${order?.STATUS_TEXT}`;
    });
    expect(statuses).toEqual([
      'production Производство',
      'shipped Отгружен',
      'production_evaluation Оценка производства',
      'production Производство',
      'shipped Отгружен',
      'production_evaluation Оценка производства',
    ]);
    const { STATUS: _status, STATUS_TEXT: _text, ...rest } = orderAt(2, MOVING.statusOrder) ?? {};
    const { STATUS: _s, STATUS_TEXT: _t, ...sampleRest } = sampleOrder(MOVING.statusOrder) ?? {};
    expect(rest).toEqual(sampleRest);
  });

  it(`${MOVING.statusOrder}: midnight is one ordinary step of the cycle`, () => {
    expect(orderAt(DAY_TICKS - 1, MOVING.statusOrder)?.STATUS).toBe('production_evaluation');
    expect(orderAt(DAY_TICKS, MOVING.statusOrder)?.STATUS).toBe('production');
  });

  it(`${MOVING.amountOrder}: every third tick five more pipes at a price one per cent up, four steps round`, () => {
    const first = (tick: number) => orderAt(tick, MOVING.amountOrder)?.POSITION?.[0];
    expect([0, 3, 6, 9, 12].map((tick) => [first(tick)?.QUANTITY, first(tick)?.PRICE])).toEqual([
      [83.636, 118_500],
      [89.61, 119_685],
      [95.584, 120_870],
      [101.558, 122_055],
      [83.636, 118_500],
    ]);
    const step = orderAt(3, MOVING.amountOrder);
    expect(step).toMatchObject({ POSITION_PIECES: 134, POSITION_METERS: 1302 });
    expect(step?.POSITION_WEIGHT_TONN).toBeCloseTo(92.495, 9);
    expect(step?.POSITION_SUM).toBeCloseTo(11_022_696.81, 6);
    const sum = (step?.POSITION ?? []).reduce((total, position) => total + (position.QUANTITY ?? 0) * (position.PRICE ?? 0), 0);
    expect(step?.POSITION_SUM).toBe(sum);
    expect(step?.POSITION?.slice(1)).toEqual(sampleOrder(MOVING.amountOrder)?.POSITION?.slice(1));
    expect(orderAt(1, MOVING.amountOrder)).toEqual(sampleOrder(MOVING.amountOrder));
    expect(orderAt(5, MOVING.amountOrder)).toEqual(step);
    expect(orderAt(12, MOVING.amountOrder)).toEqual(sampleOrder(MOVING.amountOrder));
  });

  it(`${MOVING.specification} (ДП-77/2026 № 1): planned a month ahead on odd ticks, unplanned on even ones`, () => {
    const planned = [0, 1, 2, 3].map((tick) => specAt(tick)?.POSITION?.map((position) => position.DATE_PLANNED_PRODUCTION));
    expect(planned).toEqual([
      [null, null],
      ['2026-12-23 00:00:00', null],
      [null, null],
      ['2026-12-23 00:00:00', null],
    ]);
    expect(specAt(0)?.CONTRACT_NUMBER).toBe('ДП-77/2026');
    expect(specAt(0)?.SPECIFICATION_NUMBER).toBe('1');
  });

  it(`${MOVING.specification}: an act dated today every second tick, the last three kept`, () => {
    const added = (tick: number, day = DEMO_EPOCH) =>
      demoDataAt(sampleData, day + tick * TICK_MS)
        .specifications.find((spec) => spec.SAP_ID === MOVING.specification)
        ?.DOCUMENT_LIST?.slice(2)
        .map((document) => `${document.NUMBER} ${document.DATE}`);
    expect(added(1)).toEqual([]);
    expect(added(2)).toEqual(['АКТ-2 2026-11-23 00:00:00']);
    expect(added(3)).toEqual(['АКТ-2 2026-11-23 00:00:00']);
    expect(added(6)).toEqual(['АКТ-2 2026-11-23 00:00:00', 'АКТ-4 2026-11-23 00:00:00', 'АКТ-6 2026-11-23 00:00:00']);
    expect(added(9)).toEqual(['АКТ-4 2026-11-23 00:00:00', 'АКТ-6 2026-11-23 00:00:00', 'АКТ-8 2026-11-23 00:00:00']);
    expect(added(2, Date.UTC(2027, 0, 5))).toEqual(['АКТ-2 2027-01-05 00:00:00']);
    const sample = sampleData.specifications.find((spec) => spec.SAP_ID === MOVING.specification);
    expect(specAt(9)?.DOCUMENT_LIST?.slice(0, 2)).toEqual(sample?.DOCUMENT_LIST);
    expect(specAt(9)?.DOCUMENT).toEqual(sample?.DOCUMENT);
    expect(specAt(1)).toEqual({ ...sample, POSITION: specAt(1)?.POSITION });
  });

  it('every moved record still parses with the portal schemas', () => {
    for (const tick of [1, 2, 3, 6, 9, 665, 1439]) {
      for (const sapId of [MOVING.statusOrder, MOVING.amountOrder]) expect(orderSchema.safeParse(orderAt(tick, sapId)).success).toBe(true);
      expect(specificationSchema.safeParse(specAt(tick)).success).toBe(true);
    }
  });
});

describe('still records', () => {
  it('every other order and specification is the sample record itself, all day long', () => {
    for (let tick = 0; tick < DAY_TICKS; tick += 1) {
      const data = at(tick);
      expect(data.orders.map((order) => order.SAP_ID)).toEqual(sampleData.orders.map((order) => order.SAP_ID));
      data.orders.forEach((order, k) => {
        if (!movingIds.includes(String(order.SAP_ID))) expect(order).toBe(sampleData.orders[k]);
      });
      data.specifications.forEach((spec, k) => {
        if (!movingIds.includes(String(spec.SAP_ID))) expect(spec).toBe(sampleData.specifications[k]);
      });
    }
  });

  it('moves nothing in data of its own that has none of the moving records', () => {
    const own = { orders: [{ SAP_ID: '0007300999', STATUS: 'production' }], specifications: [] };
    expect(demoDataAt(own, DEMO_EPOCH + 5 * TICK_MS)).toEqual(own);
  });
});
