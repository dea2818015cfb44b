import type { EventFilter, EventRecord, Page, PageQuery, Scope } from '../../records.js';
import type { SqlValue } from '../database.js';
import { pageClause, toPage } from '../pagination.js';
import { bool, EVENT_COLUMNS, eventFromRow, eventToRow } from '../rows.js';
import { SqlBase, type Row, placeholders } from '../sql-base.js';

/** Events, the log webhooks are delivered from. */
export abstract class EventQueries extends SqlBase {
  async insertEvent(e: EventRecord): Promise<void> {
    await this.ex.run(`INSERT INTO events (${EVENT_COLUMNS}) VALUES (${placeholders(7)})`, eventToRow(e));
  }

  async findEventById(scope: Scope, id: string): Promise<EventRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id = ? AND account_id = ? AND livemode = ?`, [
      id,
      scope.accountId,
      bool(scope.livemode),
    ]);
    return row && eventFromRow(row);
  }

  async listEvents(scope: Scope, filter: EventFilter, page: PageQuery): Promise<Page<EventRecord>> {
    const clause = pageClause(page);
    let where = 'account_id = ? AND livemode = ?';
    const params: SqlValue[] = [scope.accountId, bool(scope.livemode)];
    if (filter.type !== undefined) {
      where += ' AND type = ?';
      params.push(filter.type);
    }
    const rows = await this.ex.all<Row>(`SELECT ${EVENT_COLUMNS} FROM events WHERE ${where}${clause.where}${clause.order}`, [
      ...params,
      ...clause.params,
    ]);
    return toPage(rows.map(eventFromRow), page.limit, clause.reversed);
  }

  async listEventsAfter(afterId: string, limit: number): Promise<EventRecord[]> {
    const rows = await this.ex.all<Row>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id > ? ORDER BY id ASC LIMIT ?`, [afterId, limit]);
    return rows.map(eventFromRow);
  }
}
