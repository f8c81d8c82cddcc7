import { describe, expect, test } from 'vitest';
import { snapshotSchema } from '../../src/watch/changes.ts';
import { orderSnapshot, snapshotOf, specSnapshot } from '../../src/watch/snapshot.ts';
import { makeOrder, makeSpecification, orderPosition, specificationPosition } from '../fixtures/portal-records.ts';

describe('order snapshot', () => {
  test('keeps the title facts, the normalised fields and the positions by SAP position number', () => {
    expect(orderSnapshot(makeOrder())).toEqual({
      sapId: '0007300100',
      title: { sapId: '0007300100', date: '2026-03-15' },
      fields: {
        status: 'Производство',
        statusCode: 'production',
        sum: 1234567.89,
        prepayment: 500000,
        weight: 12.345,
        metres: 120.5,
        pieces: 10,
      },
      lists: {
        positions: {
          '000010': { material: 'Труба 530х8 К52 ГОСТ 20295-85', materialCode: '000000000010012345', quantity: 12.345, measure: 'TO', price: 1000, currency: 'RUB' },
          '000020': { material: 'Труба э/с 133х4,5', materialCode: '000000000010012346', quantity: 120.5, measure: 'MTR', price: 1000, currency: 'RUB' },
        },
      },
    });
  });

  test('rounds money to 2 decimals, tonnes and quantities to 3, metres to 2; trims text; null stays null', () => {
    const snapshot = orderSnapshot(
      makeOrder({
        SAP_ID: ' 0007300100 ',
        STATUS_TEXT: '  Отгружен ',
        POSITION_SUM: 1234.5600000001,
        PREPAYMENT: null,
        POSITION_WEIGHT_TONN: 1.23449999999,
        POSITION_METERS: 10.004999999,
        POSITION_PIECES: null,
        DATE_ORDER: '2026-03-15 14:30:00',
        POSITION: [orderPosition(1, { QUANTITY: 2.00049999, PRICE: 99.999, MATERIAL_NAME: ' Труба ', ORDER_POSITION_SAP_ID: '' })],
      }),
    );
    expect(snapshot.sapId).toBe('0007300100');
    expect(snapshot.title.date).toBe('2026-03-15 14:30:00');
    expect(snapshot.fields).toMatchObject({ status: 'Отгружен', sum: 1234.56, prepayment: null, weight: 1.234, metres: 10.0, pieces: null });
    // No SAP position number yet: the portal's row id keys the position.
    expect(snapshot.lists.positions).toEqual({ '1': expect.objectContaining({ quantity: 2, price: 100, material: 'Труба' }) });
  });

  test('the status code stands in for an empty status text', () => {
    expect(orderSnapshot(makeOrder({ STATUS_TEXT: '', STATUS: 'shipped' })).fields).toMatchObject({ status: 'shipped', statusCode: 'shipped' });
    expect(orderSnapshot(makeOrder({ STATUS_TEXT: null, STATUS: null })).fields).toMatchObject({ status: null, statusCode: null });
  });

  test('1.005 rounds as written, not as its binary value; -0 is 0', () => {
    expect(orderSnapshot(makeOrder({ PREPAYMENT: 1.005, POSITION_SUM: -0.001 })).fields).toMatchObject({ prepayment: 1.01, sum: 0 });
    expect(Object.is(orderSnapshot(makeOrder({ POSITION_SUM: -0.001 })).fields.sum, 0)).toBe(true);
  });
});

describe('specification snapshot', () => {
  test('keeps the title facts, fields and the four lists', () => {
    expect(specSnapshot(makeSpecification())).toEqual({
      sapId: '0040001234',
      title: { number: '12', contract: 'ДП-77/2026', contractDate: '2026-02-01' },
      fields: {
        status: '20',
        statusType: 'ZSD_DOG',
        validFrom: '2026-03-01',
        validTo: '2026-12-31',
        plannedWeight: 120.5,
        prepayment: 1000000,
      },
      lists: {
        positions: {
          '000010': { material: 'Труба 530х8 К52 ГОСТ 20295-85', materialCode: '000000000010012345', planned: '2026-04-15' },
          '000020': { material: 'Труба э/с 133х4,5', materialCode: '000000000010012346', planned: null },
        },
        documents: { '1': { number: '123', date: '2026-02-01' } },
        consignees: { 'ооо ромашка': { name: 'ООО Ромашка' } },
        requests: { '0007300100': { number: null, date: '2026-03-15' } },
      },
    });
  });

  test('DOCUMENT and DOCUMENT_LIST are one list: the same id, or the same number and date, is one document', () => {
    const spec = makeSpecification({
      DOCUMENT: [{ ID: 1, NUMBER: '123', DATE: '2026-02-01 00:00:00' }],
      DOCUMENT_LIST: [
        { ID: 1, NUMBER: '123', DATE: '2026-02-01 00:00:00' },
        { ID: 2, NUMBER: '123', DATE: '2026-02-01' },
        { ID: 3, NUMBER: 'АКТ-555', DATE: '2026-11-20 00:00:00' },
      ],
    });
    expect(specSnapshot(spec).lists.documents).toEqual({
      '1': { number: '123', date: '2026-02-01' },
      '3': { number: 'АКТ-555', date: '2026-11-20' },
    });
  });

  test('consignees once each whatever their spacing and case; requests by SAP number, else by number', () => {
    const spec = makeSpecification({
      DELIVERY: [{ CONSIGNEE_SHORT_NAME: 'ООО  Ромашка' }, { CONSIGNEE_SHORT_NAME: 'ооо ромашка ' }, { CONSIGNEE_SHORT_NAME: '' }],
      ORDER: [
        { ID: 7, NUMBER: '', DATE_ORDER: null, SAP_ID: '0007300100' },
        { ID: 8, NUMBER: 'З-15', DATE_ORDER: '2026-03-16 00:00:00', SAP_ID: '' },
        { ID: 9, NUMBER: '', DATE_ORDER: null, SAP_ID: '' },
      ],
      POSITION: [specificationPosition(1, { SPECIFICATION_POSITION_SAP_ID: ' ', DATE_PLANNED_PRODUCTION: '2026-06-15T00:00:00' })],
    });
    const { lists } = specSnapshot(spec);
    expect(lists.consignees).toEqual({ 'ооо ромашка': { name: 'ООО Ромашка' } });
    expect(lists.requests).toEqual({ '0007300100': { number: null, date: null }, 'З-15': { number: 'З-15', date: '2026-03-16' } });
    expect(lists.positions).toEqual({ '1': expect.objectContaining({ planned: '2026-06-15' }) });
  });
});

describe('snapshotOf', () => {
  test('records by SAP number, in the portal order, the first kept when repeated; valid against the stored schema', () => {
    const snapshot = snapshotOf({
      resource: 'order',
      items: [makeOrder({ SAP_ID: '0007300102' }), makeOrder(), makeOrder({ SAP_ID: '0007300102', STATUS_TEXT: 'Другой' })],
    });
    expect(snapshot.resource).toBe('order');
    expect(Object.keys(snapshot.records)).toEqual(['0007300102', '0007300100']);
    expect(snapshot.records['0007300102']?.fields.status).toBe('Производство');
    expect(snapshotSchema.parse(JSON.parse(JSON.stringify(snapshot)))).toEqual(snapshot);
  });

  test('takes fetchAll\'s result for specifications', () => {
    const snapshot = snapshotOf({ resource: 'specification', items: [makeSpecification()], total: 1 });
    expect(snapshot).toEqual({ resource: 'specification', records: { '0040001234': specSnapshot(makeSpecification()) } });
  });
});
