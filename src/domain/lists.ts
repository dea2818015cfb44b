import { ApiError } from '../errors/api-error.js';
import { hasIdShape, type IdPrefix, idLowerBoundForTime } from '../lib/ids.js';
import type { Page, PageQuery } from '../store/records.js';

export const LIST_DEFAULT_LIMIT = 10;
export const LIST_MAX_LIMIT = 100;

export interface CreatedFilter {
  gt?: number;
  gte?: number;
  lt?: number;
  lte?: number;
}

export interface ListParams {
  limit?: number;
  starting_after?: string;
  ending_before?: string;
  created?: CreatedFilter | number;
}

export interface ListObject<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

/**
 * Turns list parameters into an id-range page query. Ids sort by creation time, so `created`
 * bounds become id bounds and every page is one index range scan.
 */
export async function pageQuery(params: ListParams, prefix: IdPrefix, cursorExists: (id: string) => Promise<boolean>): Promise<PageQuery> {
  if (params.starting_after !== undefined && params.ending_before !== undefined) {
    throw new ApiError('parameter_invalid', 'Send at most one of starting_after and ending_before.', { param: 'ending_before' });
  }
  for (const param of ['starting_after', 'ending_before'] as const) {
    const cursor = params[param];
    if (cursor !== undefined && (!hasIdShape(prefix, cursor) || !(await cursorExists(cursor)))) {
      throw new ApiError('resource_missing', `No such object for ${param}: '${cursor.slice(0, 80)}'.`, { param, status: 400 });
    }
  }
  const query: PageQuery = {
    limit: params.limit ?? LIST_DEFAULT_LIMIT,
    startingAfter: params.starting_after,
    endingBefore: params.ending_before,
  };
  const created = typeof params.created === 'number' ? { gte: params.created, lte: params.created } : params.created;
  if (created) {
    const lowers = [created.gte, created.gt === undefined ? undefined : created.gt + 1].filter((v) => v !== undefined);
    const uppers = [created.lt, created.lte === undefined ? undefined : created.lte + 1].filter((v) => v !== undefined);
    if (lowers.length) query.idGte = idLowerBoundForTime(prefix, Math.max(...lowers) * 1000);
    if (uppers.length) query.idLt = idLowerBoundForTime(prefix, Math.min(...uppers) * 1000);
  }
  return query;
}

export function toList<R, T>(url: string, page: Page<R>, present: (record: R) => T): ListObject<T> {
  return { object: 'list', data: page.rows.map(present), has_more: page.hasMore, url };
}
