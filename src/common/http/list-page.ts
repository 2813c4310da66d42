import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { IdPrefix } from '../ids/ids';
import { type CursorKey, type CursorValue, decodeCursor, encodeCursor } from './cursor';
import { DEFAULT_PAGE_SIZE, PageQueryDto } from './page-query.dto';
import { Paged } from './reply';

/** A list's order: its key (also what the cursor holds) and direction. */
interface ListOrder {
  key: CursorKey;
  direction: 'ASC' | 'DESC';
}

/** Newest first: ids are ULIDs, which sort by creation time. */
export function newestFirst(prefix: IdPrefix): ListOrder {
  return { key: { field: 'id', prefix }, direction: 'DESC' };
}

/** The waitlist's line order: position ascending. */
export const LINE_ORDER: ListOrder = { key: { field: 'position' }, direction: 'ASC' };

/**
 * A page from `limit + 1` rows (the extra row only says whether there is more): the first `limit`
 * rows mapped to DTOs, and a cursor at the last of them when another page exists.
 */
export function toPage<Row extends ObjectLiteral, Dto>(rows: Row[], limit: number, key: CursorKey, toDto: (row: Row) => Dto): Paged<Dto> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > limit ? encodeCursor(key, last[key.field] as CursorValue) : null;
  return new Paged(page.map(toDto), nextCursor);
}

/**
 * The one way lists page: `qb` brings the project filter and the list's own filters; this adds the
 * cursor condition (a malformed cursor is 400 before any query runs), the order and `limit + 1`,
 * and builds the page. Keyset pagination: a page costs the same wherever it starts.
 */
export async function listPage<Row extends ObjectLiteral, Dto>(
  qb: SelectQueryBuilder<Row>,
  query: PageQueryDto,
  order: ListOrder,
  toDto: (row: Row) => Dto,
): Promise<Paged<Dto>> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const column = `${qb.alias}.${order.key.field}`;
  if (query.cursor) {
    const after = decodeCursor(query.cursor, order.key);
    qb.andWhere(`${column} ${order.direction === 'ASC' ? '>' : '<'} :pageAfter`, { pageAfter: after });
  }
  const rows = await qb
    .orderBy(column, order.direction)
    .limit(limit + 1)
    .getMany();
  return toPage(rows, limit, order.key, toDto);
}
