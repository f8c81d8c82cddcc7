import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import type { Order } from '../../../portal/schemas.ts';
import { excelDate, lazyRows, quantityCell, textCell } from '../../../export/sheet.ts';
import type { Column, ColumnKind, Sheet } from '../../../export/sheet.ts';
import { orderCurrency } from './card.ts';

// Orders as two sheets: one row per order with every field, one row per position with its
// order's SAP number. Codes are text; amounts are numbers the writer rounds as the cards do.

const column = (t: Translate, key: string, kind: ColumnKind): Column => ({ header: t(`sheet.column.${key}`), kind });

const ordersSheet = (orders: readonly Order[], t: Translate): Sheet => ({
  name: t('sheet.orders'),
  columns: [
    column(t, 'sapId', 'text'),
    column(t, 'crmId', 'text'),
    column(t, 'orderDate', 'date'),
    column(t, 'statusCode', 'text'),
    column(t, 'status', 'text'),
    column(t, 'total', 'money'),
    column(t, 'currency', 'text'),
    column(t, 'prepayment', 'money'),
    column(t, 'weight', 'tonnes'),
    column(t, 'metres', 'metres'),
    column(t, 'pieces', 'integer'),
    column(t, 'positionCount', 'integer'),
  ],
  rows: lazyRows(function* () {
    for (const order of orders) {
      yield [
        textCell(order.SAP_ID),
        textCell(order.CRM_ID),
        excelDate(order.DATE_ORDER),
        textCell(order.STATUS),
        textCell(order.STATUS_TEXT),
        order.POSITION_SUM,
        orderCurrency(order.POSITION),
        order.PREPAYMENT,
        order.POSITION_WEIGHT_TONN,
        order.POSITION_METERS,
        order.POSITION_PIECES,
        order.POSITION.length,
      ];
    }
  }),
});

const positionsSheet = (orders: readonly Order[], t: Translate, fmt: Formatter): Sheet => ({
  name: t('sheet.orderPositions'),
  columns: [
    column(t, 'orderSapId', 'text'),
    column(t, 'positionNumber', 'text'),
    column(t, 'materialCode', 'text'),
    column(t, 'material', 'text'),
    column(t, 'quantity', 'quantity'),
    column(t, 'unit', 'text'),
    column(t, 'price', 'money'),
    column(t, 'currency', 'text'),
    column(t, 'positionId', 'text'),
  ],
  rows: lazyRows(function* () {
    for (const order of orders) {
      for (const position of order.POSITION) {
        yield [
          textCell(order.SAP_ID),
          textCell(position.ORDER_POSITION_SAP_ID),
          textCell(position.MATERIAL_SAP_ID),
          textCell(position.MATERIAL_NAME),
          quantityCell(position.QUANTITY, position.MEASURE),
          textCell(fmt.unit(position.MEASURE)),
          position.PRICE,
          textCell(position.CURRENCY),
          String(position.ID),
        ];
      }
    }
  }),
});

/** «Заказы» and «Позиции» / "Orders" and "Positions", headers in the user's language. */
export const orderExportSheets = (orders: readonly Order[], t: Translate, fmt: Formatter): Sheet[] => [
  ordersSheet(orders, t),
  positionsSheet(orders, t, fmt),
];
