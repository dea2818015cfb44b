import type { EventFilter, EventRecord, Page, PageQuery, Scope } from '../../records.js';
import { EVENT_COLUMNS, eventFromRow, eventToRow } from '../rows.js';
import { placeholders, type Row, type ScopedTable, SqlBase } from '../sql-base.js';

const EVENTS: ScopedTable<EventRecord> = { name: 'events', columns: EVENT_COLUMNS, fromRow: eventFromRow };

/** Events, the log webhooks are delivered from. */
export abstract class EventQueries extends SqlBase {
  async insertEvent(e: EventRecord): Promise<void> {
    await this.ex.run(`INSERT INTO events (${EVENT_COLUMNS}) VALUES (${placeholders(7)})`, eventToRow(e));
  }

  findEventById(scope: Scope, id: string): Promise<EventRecord | undefined> {
    return this.findInScope(EVENTS, scope, id);
  }

  listEvents(scope: Scope, filter: EventFilter, page: PageQuery): Promise<Page<EventRecord>> {
    return this.listInScope(EVENTS, scope, { type: filter.type }, page);
  }

  async listEventsAfter(afterId: string, limit: number): Promise<EventRecord[]> {
    const rows = await this.ex.all<Row>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id > ? ORDER BY id ASC LIMIT ?`, [afterId, limit]);
    return rows.map(eventFromRow);
  }
}
