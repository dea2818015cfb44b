import type { Page, PageQuery, RefundFilter, RefundRecord, Scope } from '../../records.js';
import type { SqlValue } from '../database.js';
import { pageClause, toPage } from '../pagination.js';
import { bool, REFUND_COLUMNS, refundFromRow, refundToRow, setClause } from '../rows.js';
import { SqlBase, type Row, placeholders } from '../sql-base.js';

/** Refunds. */
export abstract class RefundQueries extends SqlBase {
  async insertRefund(f: RefundRecord): Promise<void> {
    await this.ex.run(`INSERT INTO refunds (${REFUND_COLUMNS}) VALUES (${placeholders(11)})`, refundToRow(f));
  }

  async findRefundById(scope: Scope, id: string): Promise<RefundRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE id = ? AND account_id = ? AND livemode = ?`, [
      id,
      scope.accountId,
      bool(scope.livemode),
    ]);
    return row && refundFromRow(row);
  }

  async updateRefund(scope: Scope, id: string, patch: Partial<Pick<RefundRecord, 'status' | 'failureReason'>>): Promise<void> {
    const { sql, params } = setClause(patch, {
      status: ['status', (v) => v as string],
      failureReason: ['failure_reason', (v) => v as string | null],
    });
    if (!sql) return;
    await this.ex.run(`UPDATE refunds SET ${sql} WHERE id = ? AND account_id = ? AND livemode = ?`, [
      ...params,
      id,
      scope.accountId,
      bool(scope.livemode),
    ]);
  }

  async listRefunds(scope: Scope, filter: RefundFilter, page: PageQuery): Promise<Page<RefundRecord>> {
    const clause = pageClause(page);
    let where = 'account_id = ? AND livemode = ?';
    const params: SqlValue[] = [scope.accountId, bool(scope.livemode)];
    if (filter.paymentId !== undefined) {
      where += ' AND payment_id = ?';
      params.push(filter.paymentId);
    }
    const rows = await this.ex.all<Row>(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE ${where}${clause.where}${clause.order}`, [
      ...params,
      ...clause.params,
    ]);
    return toPage(rows.map(refundFromRow), page.limit, clause.reversed);
  }
}
