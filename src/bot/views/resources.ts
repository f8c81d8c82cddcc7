import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { ResourceRecords, Results } from '../../portal/client.ts';
import type { Order, Specification } from '../../portal/schemas.ts';
import type { Sheet } from '../../export/sheet.ts';
import type { CardOptions } from './common/card-parts.ts';
import type { DetailsView } from './common/details-view.ts';
import { recordId } from '../callback-data/record-id.ts';
import type { InlineItem } from './common/inline-item.ts';
import { renderOrderCard } from './order/card.ts';
import { renderOrderDetails } from './order/details.ts';
import { orderExportSheets } from './order/export.ts';
import { renderOrderInline } from './order/inline.ts';
import { renderSpecCard } from './specification/card.ts';
import { relatedOrders, renderSpecDetails } from './specification/details.ts';
import { specExportSheets } from './specification/export.ts';
import { renderSpecInline } from './specification/inline.ts';
import { renderOrderRich } from './order/rich.ts';
import { renderSpecRich } from './specification/rich.ts';
import type { RichRecord } from './common/rich-record.ts';
import type { Material } from '../keyboards/materials.ts';

// One table of what each resource shows, keyed by the resource. A new way of showing records (a
// change notification, an export row) is one more entry for each resource here.

export type ResourceViews<R> = {
  /** The SAP number the buttons that open a record fingerprint. */
  sapId(record: R): string;
  card(record: R, t: Translate, fmt: Formatter, options?: CardOptions): string;
  /** The record in full, one part of it; `fetchedAt` gives the «обновлено 14:05» line. */
  details(record: R, part: number, t: Translate, fmt: Formatter, fetchedAt?: Date): DetailsView;
  inline(record: R, t: Translate, fmt: Formatter): InlineItem;
  /** The record in full as a rich message (one part of it: the whole record, unless past Telegram's limits). */
  rich(record: R, part: number, t: Translate, fmt: Formatter, fetchedAt?: Date): RichRecord;
  /** What its copy button shows and copies: its number as people quote it. */
  copy(record: R, t: Translate): { label: string; text: string };
  /** The materials of its positions, each once. */
  materials(record: R): readonly Material[];
  /** The SAP numbers of its production requests, each once (specifications). */
  requests(record: R): string[];
  /** The records as workbook sheets (src/export/write-workbook.ts writes them). */
  exportSheets(records: readonly R[], t: Translate, fmt: Formatter): Sheet[];
};

const RESOURCE_VIEWS: { order: ResourceViews<Order>; specification: ResourceViews<Specification> } = {
  order: {
    sapId: (order) => order.SAP_ID,
    card: renderOrderCard,
    details: renderOrderDetails,
    inline: renderOrderInline,
    exportSheets: orderExportSheets,
    rich: renderOrderRich,
    copy: (order) => ({ label: order.SAP_ID.trim(), text: order.SAP_ID.trim() }),
    materials: (order) => materialsOf(order.POSITION),
    requests: () => [],
  },
  specification: {
    sapId: (spec) => spec.SAP_ID,
    card: renderSpecCard,
    details: renderSpecDetails,
    inline: renderSpecInline,
    exportSheets: specExportSheets,
    rich: renderSpecRich,
    copy: (spec, t) => {
      const contract = spec.CONTRACT_NUMBER.trim();
      const number = spec.SPECIFICATION_NUMBER.trim();
      if (contract === '' || number === '') return { label: spec.SAP_ID.trim(), text: spec.SAP_ID.trim() };
      return { label: t('rich.copySpecLabel', { contract, number }), text: t('rich.copySpec', { contract, number }) };
    },
    materials: (spec) => materialsOf(spec.POSITION),
    requests: (spec) => relatedOrders(spec).flatMap((order) => (order.SAP_ID.trim() === '' ? [] : [order.SAP_ID.trim()])),
  },
};

type Positions = ReadonlyArray<{ MATERIAL_SAP_ID: string; MATERIAL_NAME: string }>;

/** The materials of positions, by code, each once (the first name it has). */
const listMaterials = (positions: Positions): Material[] => {
  const byCode = new Map<string, string>();
  for (const position of positions) {
    const code = position.MATERIAL_SAP_ID.trim();
    if (code !== '' && !byCode.has(code)) byCode.set(code, position.MATERIAL_NAME.trim());
  }
  return [...byCode].map(([code, name]) => ({ code, name }));
};

// A record's positions are the portal cache's shared, never-mutated array: listed once while it holds them.
const listed = new WeakMap<Positions, readonly Material[]>();
const materialsOf = (positions: Positions): readonly Material[] => {
  let materials = listed.get(positions);
  if (materials === undefined) {
    materials = listMaterials(positions);
    listed.set(positions, materials);
  }
  return materials;
};

/** The records of a page of results. */
export const recordsOf = (results: Results): ResourceRecords =>
  results.resource === 'order'
    ? { resource: 'order', query: results.query, items: results.page.items }
    : { resource: 'specification', query: results.query, items: results.page.items };

/** Calls `use` with the records and their resource's views, whose types match: no cast anywhere. */
export const withViews = <T>(records: ResourceRecords, use: <R extends object>(items: readonly R[], views: ResourceViews<R>) => T): T =>
  records.resource === 'order' ? use(records.items, RESOURCE_VIEWS.order) : use(records.items, RESOURCE_VIEWS.specification);

/** The fingerprint of each record, for the buttons that open them (in page order). */
export const recordIds = (records: ResourceRecords): string[] =>
  withViews(records, (items, views) => items.map((item) => recordId(views.sapId(item))));
