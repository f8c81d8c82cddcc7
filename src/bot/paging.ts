import type { PageSize } from '../query.ts';

export type PageWindow = { offset: number; limit: PageSize; total: number };

/** Where ◀ and ▶ lead from a page (undefined at either end), and which page of how many it is. */
export const pageNavigation = ({ offset, limit, total }: PageWindow) => ({
  prev: offset > 0 ? Math.max(0, offset - limit) : undefined,
  next: offset + limit < total ? offset + limit : undefined,
  page: Math.floor(offset / limit) + 1,
  pages: Math.max(1, Math.ceil(total / limit)),
});

/** The offset of the last page of `total` records (0 when there are none). */
export const lastPageOffset = (total: number, limit: PageSize): number => Math.max(0, Math.ceil(total / limit) - 1) * limit;
