import { z } from 'zod';

// Portal JSON, parsed once at the edge. Tolerant where the spec is: null arrays become [],
// DOCUMENT_LIST is optional, STATUS_TYPE is any string, unknown extra fields pass through.

/** null (or a missing field) reads as an empty list. */
const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((value) => value ?? []);

/** Identifiers are strings in the spec; a numeric one is accepted and kept as its text. */
const id = z.union([z.string(), z.number().transform(String)]);
const text = z.string().nullish().transform((value) => value ?? '');
const amount = z.number().nullish().transform((value) => value ?? null);
/** A portal timestamp "YYYY-MM-DD HH:MM:SS" (or a bare date); kept as text, formatted in views. */
const timestamp = z.string().nullish().transform((value) => value || null);

export const orderPositionSchema = z.looseObject({
  ID: z.number().int(),
  QUANTITY: amount,
  MEASURE: text,
  PRICE: amount,
  CURRENCY: text,
  MATERIAL_SAP_ID: text,
  MATERIAL_NAME: text,
  ORDER_POSITION_SAP_ID: text,
});

export const orderSchema = z.looseObject({
  SAP_ID: id,
  CRM_ID: text,
  DATE_ORDER: timestamp,
  STATUS: text,
  STATUS_TEXT: text,
  PREPAYMENT: amount,
  POSITION_SUM: amount,
  POSITION_METERS: amount,
  POSITION_PIECES: amount,
  POSITION_WEIGHT_TONN: amount,
  POSITION: list(orderPositionSchema),
});

export const documentSchema = z.looseObject({
  ID: z.number().int(),
  NUMBER: text,
  DATE: timestamp,
});

export const deliverySchema = z.looseObject({
  CONSIGNEE_SHORT_NAME: text,
});

export const relatedOrderSchema = z.looseObject({
  ID: z.number().int(),
  NUMBER: text,
  DATE_ORDER: timestamp,
  SAP_ID: text,
});

export const specificationPositionSchema = z.looseObject({
  ID: z.number().int(),
  PID_ID: text,
  MATERIAL_SAP_ID: text,
  MATERIAL_NAME: text,
  DATE_PLANNED_PRODUCTION: timestamp,
  SPECIFICATION_POSITION_SAP_ID: text,
});

export const specificationSchema = z.looseObject({
  SAP_ID: id,
  SPECIFICATION_NUMBER: text,
  CONTRACT_NUMBER: text,
  CONTRACT_DATE: timestamp,
  PLANNED_WEIGHT_TONN: amount,
  PREPAYMENT: amount,
  STATUS: z.union([z.string(), z.number().transform(String)]).nullish().transform((value) => value ?? ''),
  STATUS_TYPE: text,
  DATE_ACTIVE_FROM: timestamp,
  DATE_ACTIVE_TO: timestamp,
  DELIVERY: list(deliverySchema),
  DOCUMENT: list(documentSchema),
  DOCUMENT_LIST: list(documentSchema),
  ORDER: list(relatedOrderSchema),
  POSITION: list(specificationPositionSchema),
});

/** The envelope of 2.1; `result` is validated per record type by `pageSchema`. */
export const envelopeSchema = z.looseObject({
  success: z.boolean(),
  error_code: z.unknown().optional(),
  data: z.unknown().optional(),
});

export const pageSchema = <T extends z.ZodType>(record: T) =>
  z.looseObject({
    result: list(record),
    total: z.number().int().nonnegative(),
    limit: z.number().int().nonnegative(),
    offset: z.number().int().nonnegative(),
  });

export type OrderPosition = z.infer<typeof orderPositionSchema>;
export type Order = z.infer<typeof orderSchema>;
export type Document = z.infer<typeof documentSchema>;
export type RelatedOrder = z.infer<typeof relatedOrderSchema>;
export type SpecificationPosition = z.infer<typeof specificationPositionSchema>;
export type Specification = z.infer<typeof specificationSchema>;
