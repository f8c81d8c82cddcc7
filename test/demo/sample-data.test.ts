import { describe, expect, it, vi } from 'vitest';
import { orderSchema, specificationSchema } from '../../src/portal/schemas.ts';
import { sampleData } from '../../src/demo/sample-data.ts';
import { recognise } from '../../src/recognise.ts';

const { orders, specifications } = sampleData;
const orderPositions = orders.flatMap((order) => order.POSITION ?? []);
const specificationPositions = specifications.flatMap((specification) => specification.POSITION ?? []);
const countBy = <T>(items: readonly T[], key: (item: T) => string) =>
  items.reduce((counts, item) => counts.set(key(item), (counts.get(key(item)) ?? 0) + 1), new Map<string, number>());
const maxCount = (counts: Map<string, number>) => Math.max(...counts.values());
const fractionDigits = (value: unknown) => (typeof value === 'number' ? (String(value).split('.')[1]?.length ?? 0) : 0);

describe('sample data: parsing', () => {
  it('every order and specification parses with the portal schemas', () => {
    for (const order of orders) expect(orderSchema.safeParse(order).success, String(order.SAP_ID)).toBe(true);
    for (const specification of specifications)
      expect(specificationSchema.safeParse(specification).success, String(specification.SAP_ID)).toBe(true);
  });

  it('is the same on every import (no randomness, no clock)', async () => {
    vi.resetModules();
    const fresh = await import('../../src/demo/sample-data.ts');
    expect(fresh.sampleData).not.toBe(sampleData);
    expect(JSON.stringify(fresh.sampleData)).toBe(JSON.stringify(sampleData));
  });
});

describe('sample data: orders', () => {
  it('has about thirty orders with SAP and CRM numbers in portal form', () => {
    expect(orders.length).toBeGreaterThanOrEqual(28);
    expect(orders.length).toBeLessThanOrEqual(35);
    expect(new Set(orders.map((order) => order.SAP_ID)).size).toBe(orders.length);
    for (const order of orders) {
      expect(order.SAP_ID).toMatch(/^\d{10}$/);
      expect(order.CRM_ID).toMatch(/^CRM-20\d\d-\d{6}$/);
      expect(order.DATE_ORDER).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00$/);
    }
    expect(orders.map((order) => order.SAP_ID)).toContain('0007300100');
    expect(orders.map((order) => order.CRM_ID)).toContain('CRM-2026-004512');
  });

  it('has both known statuses and one unknown status with an empty text', () => {
    const pairs = new Set(orders.map((order) => `${order.STATUS}|${order.STATUS_TEXT}`));
    expect(pairs).toContain('production|Производство');
    expect(pairs).toContain('production_evaluation|Оценка производства');
    const unknown = orders.filter((order) => !['production', 'production_evaluation'].includes(String(order.STATUS)));
    expect(unknown).toHaveLength(1);
    expect(unknown[0]?.STATUS).not.toBe('');
    expect(unknown[0]?.STATUS_TEXT).toBe('');
  });

  it('has 1–8 positions per order and one order with sixty, numbered 000010, 000020…', () => {
    const counts = orders.map((order) => order.POSITION?.length ?? 0).sort((a, b) => a - b);
    expect(counts.at(-1)).toBe(60);
    expect(counts.at(-2)).toBe(8);
    expect(counts[0]).toBe(1);
    for (const order of orders)
      (order.POSITION ?? []).forEach((position, k) => expect(position.ORDER_POSITION_SAP_ID).toBe(String((k + 1) * 10).padStart(6, '0')));
  });

  it('has realistic material names and codes, including quotes, angle brackets and an ampersand', () => {
    const names = new Set(orderPositions.map((position) => position.MATERIAL_NAME));
    expect(names).toContain('Труба 530х8 К52 ГОСТ 20295-85');
    expect(names).toContain('Труба э/с 133х4,5');
    expect(names).toContain('Труба 1020х12 "К60" <ТУ 1381-012>');
    expect([...names].some((name) => name?.includes('&'))).toBe(true);
    expect([...names].some((name) => name?.includes('x'))).toBe(true); // a Latin look-alike
    for (const position of orderPositions) expect(position.MATERIAL_SAP_ID).toMatch(/^0{10}\d{8}$/);
  });

  it('uses the known unit codes and one unknown code', () => {
    const measures = new Set(orderPositions.map((position) => String(position.MEASURE)));
    for (const code of ['TO', 'TNE', 'M', 'MTR', 'ST', 'KG']) expect(measures).toContain(code);
    const known = new Set(['TO', 'TNE', 'T', 'M', 'MTR', 'ST', 'PC', 'PCE', 'H87', 'KG', 'KGM']);
    expect([...measures].filter((code) => !known.has(code))).toHaveLength(1);
  });

  it('is priced in RUB, with one order mixing RUB and USD', () => {
    const currencies = countBy(orderPositions, (position) => String(position.CURRENCY));
    expect([...currencies.keys()].sort()).toEqual(['RUB', 'USD']);
    expect(currencies.get('RUB')).toBeGreaterThan(10 * (currencies.get('USD') ?? 0));
    const mixed = orders.filter((order) => new Set(order.POSITION?.map((position) => position.CURRENCY)).size > 1);
    expect(mixed).toHaveLength(1);
  });

  it('carries floating-point artefacts in amounts', () => {
    expect(orders.map((order) => order.PREPAYMENT)).toContain(1234567.8900000001);
    const amounts = orders.flatMap((order) => [order.POSITION_SUM, order.POSITION_WEIGHT_TONN, order.POSITION_METERS]);
    expect(amounts.filter((value) => fractionDigits(value) >= 9).length).toBeGreaterThanOrEqual(3);
  });

  it('shares a date, a status and a material across enough orders to page through', () => {
    expect(maxCount(countBy(orders, (order) => String(order.DATE_ORDER)))).toBeGreaterThan(10);
    expect(countBy(orders, (order) => String(order.STATUS)).get('production')).toBeGreaterThan(20);
    const withMaterial = orders.filter((order) => order.POSITION?.some((position) => position.MATERIAL_SAP_ID === '000000000010012345'));
    expect(withMaterial.length).toBeGreaterThan(20);
  });
});

describe('sample data: specifications', () => {
  it('has about twenty-five specifications under Cyrillic contract numbers', () => {
    expect(specifications.length).toBeGreaterThanOrEqual(22);
    expect(new Set(specifications.map((specification) => specification.SAP_ID)).size).toBe(specifications.length);
    for (const specification of specifications) {
      expect(specification.SPECIFICATION_NUMBER).toMatch(/^\d+(-[А-Я])?$/);
      expect(specification.CONTRACT_NUMBER).toMatch(/^[А-Я]{1,2}-\d+\/\d+/);
      expect(specification.CONTRACT_DATE).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00$/);
    }
    expect(specifications.map((specification) => specification.SPECIFICATION_NUMBER)).toContain('12');
    expect(countBy(specifications, (specification) => String(specification.CONTRACT_NUMBER)).get('ДП-77/2026')).toBeGreaterThanOrEqual(7);
  });

  it('covers every status code and status type', () => {
    const statuses = new Set(specifications.map((specification) => specification.STATUS));
    for (const code of ['10', '15', '20', '30', '40', '50', '60', '70']) expect(statuses).toContain(code);
    expect(new Set(specifications.map((specification) => specification.STATUS_TYPE))).toEqual(new Set(['ZSD_DOG', 'ZSDZNM', 'ZSDZMP']));
    expect(specifications.map((specification) => specification.DATE_ACTIVE_TO)).toContain('9999-12-31 00:00:00');
  });

  it('has null and repeated deliveries, null documents and a DOCUMENT_LIST on some records only', () => {
    expect(specifications.some((specification) => specification.DELIVERY === null)).toBe(true);
    expect(
      specifications.some((specification) => {
        const names = (specification.DELIVERY ?? []).map((delivery) => delivery.CONSIGNEE_SHORT_NAME);
        return new Set(names).size < names.length;
      }),
    ).toBe(true);
    expect(specifications.some((specification) => specification.DOCUMENT === null)).toBe(true);
    const withList = specifications.filter((specification) => 'DOCUMENT_LIST' in specification);
    expect(withList.length).toBeGreaterThan(0);
    expect(withList.length).toBeLessThan(specifications.length);
    const overlapping = withList.filter((specification) =>
      (specification.DOCUMENT ?? []).some((document) => specification.DOCUMENT_LIST?.some((listed) => listed.ID === document.ID)),
    );
    expect(overlapping.length).toBeGreaterThan(0);
  });

  it('links related production requests to real sample orders, one with an empty NUMBER', () => {
    expect(specifications.some((specification) => specification.ORDER === null)).toBe(true);
    const related = specifications.flatMap((specification) => specification.ORDER ?? []);
    expect(related.length).toBeGreaterThan(10);
    for (const element of related) {
      const order = orders.find((candidate) => candidate.SAP_ID === element.SAP_ID);
      expect(order, String(element.SAP_ID)).toBeDefined();
      expect(element.DATE_ORDER).toBe(order?.DATE_ORDER);
    }
    expect(related.filter((element) => element.NUMBER === '')).toHaveLength(1);
  });

  it('has positions with and without a planned production date, PID_ID always empty', () => {
    const planned = specificationPositions.map((position) => position.DATE_PLANNED_PRODUCTION);
    expect(planned).toContain(null);
    expect(planned.some((date) => typeof date === 'string')).toBe(true);
    for (const specification of specifications)
      (specification.POSITION ?? []).forEach((position, k) => {
        expect(position.PID_ID).toBe('');
        expect(position.SPECIFICATION_POSITION_SAP_ID).toBe(String((k + 1) * 10).padStart(6, '0'));
      });
  });
});

describe('sample data: every identifier shape a pasted text is read for (issue 30)', () => {
  it('has records for SAP numbers, CRM ids, every contract number, material codes and dates, as src/recognise.ts reads them', () => {
    const kinds = (text: string) => recognise(text, 'strict').identifiers.map((identifier) => identifier.kind);
    for (const order of orders) {
      expect(kinds(String(order.SAP_ID)), String(order.SAP_ID)).toEqual(['order']);
      expect(kinds(String(order.CRM_ID)), String(order.CRM_ID)).toEqual(['order']);
      expect(recognise(String(order.DATE_ORDER).slice(0, 10), 'loose').identifiers.map((identifier) => identifier.kind)).toEqual(['date']);
    }
    for (const specification of specifications) expect(kinds(String(specification.CONTRACT_NUMBER)), String(specification.CONTRACT_NUMBER)).toEqual(['contract']);
    for (const position of [...orderPositions, ...specificationPositions]) expect(kinds(String(position.MATERIAL_SAP_ID))).toEqual(['material']);
  });
});
