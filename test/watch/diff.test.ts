import { describe, expect, test } from 'vitest';
import type { RawOrder, RawSpecification } from '../fixtures/portal-records.ts';
import { makeOrder, makeSpecification, orderPosition, rawOrder, rawSpecification, specificationPosition } from '../fixtures/portal-records.ts';
import { diffSnapshots } from '../../src/watch/diff.ts';
import { snapshotOf } from '../../src/watch/snapshot.ts';

const orders = (...items: Array<Partial<RawOrder>>) => snapshotOf({ resource: 'order', items: items.map((item) => makeOrder(item)) });
const specs = (...items: Array<Partial<RawSpecification>>) =>
  snapshotOf({ resource: 'specification', items: items.map((item) => makeSpecification(item)) });

describe('equal snapshots', () => {
  test('give nothing, also through JSON as the store keeps them', () => {
    expect(diffSnapshots(orders({}), orders({}))).toEqual([]);
    expect(diffSnapshots(JSON.parse(JSON.stringify(specs({}))), specs({}))).toEqual([]);
  });

  test('floating-point artefacts and an empty time of day are not changes', () => {
    const before = orders({ POSITION_SUM: 1234.56, POSITION_WEIGHT_TONN: 12.345, PREPAYMENT: 0.3, DATE_ORDER: '2026-03-15' });
    const after = orders({ POSITION_SUM: 1234.5600000001, POSITION_WEIGHT_TONN: 12.345000000000001, PREPAYMENT: 0.1 + 0.2, DATE_ORDER: '2026-03-15 00:00:00' });
    expect(diffSnapshots(before, after)).toEqual([]);
    const positions = [orderPosition(1, { QUANTITY: 0.3, PRICE: 19.99 })];
    expect(diffSnapshots(orders({ POSITION: positions }), orders({ POSITION: [orderPosition(1, { QUANTITY: 0.1 + 0.2, PRICE: 19.990000000000002 })] }))).toEqual([]);
    expect(diffSnapshots(specs({ PLANNED_WEIGHT_TONN: 120.5 }), specs({ PLANNED_WEIGHT_TONN: 120.50000000000001, STATUS: 20 }))).toEqual([]);
  });
});

describe('orders', () => {
  test('every scalar field, in a fixed order', () => {
    const after = orders({
      PREPAYMENT: 600000,
      STATUS: 'shipped',
      STATUS_TEXT: 'Отгружен',
      POSITION_SUM: 1300,
      POSITION_WEIGHT_TONN: 13,
      POSITION_METERS: 121,
      POSITION_PIECES: 11,
    });
    expect(diffSnapshots(orders({}), after)).toEqual([
      {
        sapId: '0007300100',
        kind: 'changed',
        title: { sapId: '0007300100', date: '2026-03-15' },
        changes: [
          { kind: 'field', field: 'status', from: 'Производство', to: 'Отгружен' },
          { kind: 'field', field: 'statusCode', from: 'production', to: 'shipped' },
          { kind: 'field', field: 'sum', from: 1234567.89, to: 1300 },
          { kind: 'field', field: 'prepayment', from: 500000, to: 600000 },
          { kind: 'field', field: 'weight', from: 12.345, to: 13 },
          { kind: 'field', field: 'metres', from: 120.5, to: 121 },
          { kind: 'field', field: 'pieces', from: 10, to: 11 },
        ],
      },
    ]);
  });

  test('positions added, removed, and their quantities and prices', () => {
    const [first, second] = rawOrder().POSITION ?? [];
    const before = orders({});
    const after = orders({ POSITION: [{ ...first!, QUANTITY: 13, PRICE: 1100 }, orderPosition(3, { MATERIAL_NAME: 'Труба 530х8' })] });
    expect(diffSnapshots(before, after)[0]?.changes).toEqual([
      { kind: 'itemField', list: 'positions', item: '000010', field: 'quantity', from: 12.345, to: 13, name: 'Труба 530х8 К52 ГОСТ 20295-85' },
      { kind: 'itemField', list: 'positions', item: '000010', field: 'price', from: 1000, to: 1100, name: 'Труба 530х8 К52 ГОСТ 20295-85' },
      {
        kind: 'itemAdded',
        list: 'positions',
        item: '000030',
        fields: { material: 'Труба 530х8', materialCode: '000000000010012347', quantity: 1, measure: 'ST', price: 1000, currency: 'RUB' },
      },
      { kind: 'itemRemoved', list: 'positions', item: '000020', fields: expect.objectContaining({ material: second!.MATERIAL_NAME }) },
    ]);
  });
});

describe('specifications', () => {
  test('status, type, validity, planned weight, prepayment', () => {
    const after = specs({
      STATUS: '30',
      STATUS_TYPE: 'ZSDZNM',
      DATE_ACTIVE_FROM: '2026-04-01 00:00:00',
      DATE_ACTIVE_TO: '9999-12-31 00:00:00',
      PLANNED_WEIGHT_TONN: 130,
      PREPAYMENT: null,
    });
    expect(diffSnapshots(specs({}), after)[0]?.changes).toEqual([
      { kind: 'field', field: 'status', from: '20', to: '30' },
      { kind: 'field', field: 'statusType', from: 'ZSD_DOG', to: 'ZSDZNM' },
      { kind: 'field', field: 'validFrom', from: '2026-03-01', to: '2026-04-01' },
      { kind: 'field', field: 'validTo', from: '2026-12-31', to: '9999-12-31' },
      { kind: 'field', field: 'plannedWeight', from: 120.5, to: 130 },
      { kind: 'field', field: 'prepayment', from: 1000000, to: null },
    ]);
  });

  test('planned dates, positions, documents from either list, consignees and production requests', () => {
    const base = rawSpecification();
    const after = specs({
      POSITION: [
        specificationPosition(1, { MATERIAL_NAME: 'Труба 530х8 К52 ГОСТ 20295-85', DATE_PLANNED_PRODUCTION: '2026-04-15 00:00:00' }),
        specificationPosition(2, { MATERIAL_NAME: 'Труба э/с 133х4,5', DATE_PLANNED_PRODUCTION: '2026-06-15 00:00:00' }),
        specificationPosition(3, { MATERIAL_NAME: 'Труба 530х8', DATE_PLANNED_PRODUCTION: null }),
      ],
      DOCUMENT_LIST: [{ ID: 5, NUMBER: 'АКТ-555', DATE: '2026-11-20 00:00:00' }],
      DELIVERY: [{ CONSIGNEE_SHORT_NAME: 'ООО Лютик' }],
      ORDER: [...(base.ORDER ?? []), { ID: 8, NUMBER: '', DATE_ORDER: '2026-03-16 00:00:00', SAP_ID: '0007300101' }],
    });
    expect(diffSnapshots(specs({}), after)[0]?.changes).toEqual([
      { kind: 'itemField', list: 'positions', item: '000020', field: 'planned', from: null, to: '2026-06-15', name: 'Труба э/с 133х4,5' },
      { kind: 'itemAdded', list: 'positions', item: '000030', fields: { material: 'Труба 530х8', materialCode: '000000000010012347', planned: null } },
      { kind: 'itemAdded', list: 'documents', item: '5', fields: { number: 'АКТ-555', date: '2026-11-20' } },
      { kind: 'itemAdded', list: 'consignees', item: 'ооо лютик', fields: { name: 'ООО Лютик' } },
      { kind: 'itemRemoved', list: 'consignees', item: 'ооо ромашка', fields: { name: 'ООО Ромашка' } },
      { kind: 'itemAdded', list: 'requests', item: '0007300101', fields: { number: null, date: '2026-03-16' } },
    ]);
  });

  test('a document removed and a request removed are told too', () => {
    const changes = diffSnapshots(specs({}), specs({ DOCUMENT: [], ORDER: [] }))[0]?.changes;
    expect(changes).toEqual([
      { kind: 'itemRemoved', list: 'documents', item: '1', fields: { number: '123', date: '2026-02-01' } },
      { kind: 'itemRemoved', list: 'requests', item: '0007300100', fields: { number: null, date: '2026-03-15' } },
    ]);
  });
});

describe('records entering and leaving the query', () => {
  test('in the order of the new poll, then the ones that left; unchanged records are not mentioned', () => {
    const before = specs({ SAP_ID: '0040000001' }, { SAP_ID: '0040000002' }, { SAP_ID: '0040000003' });
    const after = specs({ SAP_ID: '0040000004', SPECIFICATION_NUMBER: '13' }, { SAP_ID: '0040000002' }, { SAP_ID: '0040000003', STATUS: '30' });
    expect(diffSnapshots(before, after)).toEqual([
      { sapId: '0040000004', kind: 'entered', title: { number: '13', contract: 'ДП-77/2026', contractDate: '2026-02-01' }, changes: [] },
      {
        sapId: '0040000003',
        kind: 'changed',
        title: { number: '12', contract: 'ДП-77/2026', contractDate: '2026-02-01' },
        changes: [{ kind: 'field', field: 'status', from: '20', to: '30' }],
      },
      { sapId: '0040000001', kind: 'left', title: { number: '12', contract: 'ДП-77/2026', contractDate: '2026-02-01' }, changes: [] },
    ]);
  });

  test('an empty first snapshot makes every record new', () => {
    expect(diffSnapshots({ resource: 'order', records: {} }, orders({})).map((change) => change.kind)).toEqual(['entered']);
  });
});
