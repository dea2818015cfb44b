import type { Page, PageQuery } from '../records.js';
import type { SqlValue } from './database.js';

/**
 * Newest-first cursor pagination on `id` (ids sort by creation time). Every page is one index
 * range scan of at most limit+1 rows, whatever the table's size.
 */
export function pageClause(page: PageQuery): { where: string; order: string; params: SqlValue[]; reversed: boolean } {
  const conditions: string[] = [];
  const params: SqlValue[] = [];
  if (page.idGte !== undefined) {
    conditions.push('id >= ?');
    params.push(page.idGte);
  }
  if (page.idLt !== undefined) {
    conditions.push('id < ?');
    params.push(page.idLt);
  }
  let reversed = false;
  if (page.startingAfter !== undefined) {
    conditions.push('id < ?');
    params.push(page.startingAfter);
  } else if (page.endingBefore !== undefined) {
    conditions.push('id > ?');
    params.push(page.endingBefore);
    reversed = true;
  }
  params.push(page.limit + 1);
  return {
    where: conditions.map((c) => ` AND ${c}`).join(''),
    order: reversed ? ' ORDER BY id ASC LIMIT ?' : ' ORDER BY id DESC LIMIT ?',
    params,
    reversed,
  };
}

export function toPage<T>(rows: T[], limit: number, reversed: boolean): Page<T> {
  const hasMore = rows.length > limit;
  const kept = hasMore ? rows.slice(0, limit) : rows;
  return { rows: reversed ? kept.reverse() : kept, hasMore };
}
