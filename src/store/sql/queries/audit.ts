import type { AuditChainHead, AuditEventFilter, AuditEventRecord, AuditRetentionMark, Page, PageQuery, Scope } from '../../records.js';
import type { SqlValue } from '../database.js';
import { pageClause, toPage } from '../pagination.js';
import { AUDIT_EVENT_COLUMNS, auditEventFromRow, auditEventToRow, bool } from '../rows.js';
import { SqlBase, type Row, placeholders } from '../sql-base.js';

const EVENTS_PER_INSERT = 50;
const insertSql: string[] = [];

/** `INSERT … VALUES (…), (…)` for `rows` events, built once per size: every request appends an event. */
function insertAuditEventsSql(rows: number): string {
  return (insertSql[rows] ??=
    `INSERT INTO audit_events (${AUDIT_EVENT_COLUMNS}) VALUES ${Array.from({ length: rows }, () => `(${placeholders(10)})`).join(', ')}`);
}

/** The audit log: hash-chained events, chain heads, retention marks. */
export abstract class AuditQueries extends SqlBase {
  async lockAuditChainHead(accountId: string, genesisHash: string): Promise<AuditChainHead> {
    const select = `SELECT seq, hash FROM audit_chain_heads WHERE account_id = ?${this.db.dialect.forUpdate}`;
    let row = await this.ex.get<{ seq: number; hash: string }>(select, [accountId]);
    if (!row) {
      await this.ex.run('INSERT INTO audit_chain_heads (account_id, seq, hash) VALUES (?, 0, ?) ON CONFLICT DO NOTHING', [
        accountId,
        genesisHash,
      ]);
      row = await this.ex.get<{ seq: number; hash: string }>(select, [accountId]);
      if (!row) throw new Error('audit chain head vanished');
    }
    return { accountId, seq: Number(row.seq), hash: row.hash };
  }

  async updateAuditChainHead(head: AuditChainHead): Promise<void> {
    await this.ex.run('UPDATE audit_chain_heads SET seq = ?, hash = ? WHERE account_id = ?', [head.seq, head.hash, head.accountId]);
  }

  async listAuditChainHeads(): Promise<AuditChainHead[]> {
    const rows = await this.ex.all<Row>('SELECT account_id, seq, hash FROM audit_chain_heads ORDER BY account_id');
    return rows.map((r) => ({ accountId: r.account_id as string, seq: Number(r.seq), hash: r.hash as string }));
  }

  async insertAuditEvents(events: AuditEventRecord[]): Promise<void> {
    for (let i = 0; i < events.length; i += EVENTS_PER_INSERT) {
      const chunk = events.slice(i, i + EVENTS_PER_INSERT);
      await this.ex.run(insertAuditEventsSql(chunk.length), chunk.flatMap(auditEventToRow));
    }
  }

  async findAuditEventById(scope: Scope, id: string): Promise<AuditEventRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${AUDIT_EVENT_COLUMNS} FROM audit_events WHERE id = ? AND account_id = ? AND livemode = ?`, [
      id,
      scope.accountId,
      bool(scope.livemode),
    ]);
    return row && auditEventFromRow(row);
  }

  async listAuditEvents(scope: Scope, filter: AuditEventFilter, page: PageQuery): Promise<Page<AuditEventRecord>> {
    const clause = pageClause(page);
    let where = 'account_id = ? AND livemode = ?';
    const params: SqlValue[] = [scope.accountId, bool(scope.livemode)];
    if (filter.type !== undefined) {
      where += ' AND type = ?';
      params.push(filter.type);
    }
    if (filter.apiKeyId !== undefined) {
      where += ' AND api_key_id = ?';
      params.push(filter.apiKeyId);
    }
    const rows = await this.ex.all<Row>(`SELECT ${AUDIT_EVENT_COLUMNS} FROM audit_events WHERE ${where}${clause.where}${clause.order}`, [
      ...params,
      ...clause.params,
    ]);
    return toPage(rows.map(auditEventFromRow), page.limit, clause.reversed);
  }

  async listAuditEventsBySeq(accountId: string, afterSeq: number, limit: number): Promise<AuditEventRecord[]> {
    const rows = await this.ex.all<Row>(
      `SELECT ${AUDIT_EVENT_COLUMNS} FROM audit_events WHERE account_id = ? AND seq > ? ORDER BY seq ASC LIMIT ?`,
      [accountId, afterSeq, limit],
    );
    return rows.map(auditEventFromRow);
  }

  async findAuditRetention(accountId: string): Promise<AuditRetentionMark | undefined> {
    const r = await this.ex.get<Row>('SELECT * FROM audit_retention WHERE account_id = ?', [accountId]);
    return (
      r && {
        accountId,
        exportedThroughSeq: Number(r.exported_through_seq),
        exportedThroughHash: r.exported_through_hash as string,
        purgedThroughSeq: Number(r.purged_through_seq),
        purgedThroughHash: r.purged_through_hash as string,
      }
    );
  }

  async saveAuditRetention(m: AuditRetentionMark): Promise<void> {
    await this.ex.run(
      `INSERT INTO audit_retention (account_id, exported_through_seq, exported_through_hash, purged_through_seq, purged_through_hash)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET exported_through_seq = excluded.exported_through_seq,
         exported_through_hash = excluded.exported_through_hash, purged_through_seq = excluded.purged_through_seq,
         purged_through_hash = excluded.purged_through_hash`,
      [m.accountId, m.exportedThroughSeq, m.exportedThroughHash, m.purgedThroughSeq, m.purgedThroughHash],
    );
  }

  async purgeAuditEvents(accountId: string, throughSeq: number): Promise<number> {
    return this.ex.run('DELETE FROM audit_events WHERE account_id = ? AND seq <= ?', [accountId, throughSeq]);
  }
}
