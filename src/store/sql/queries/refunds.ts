import type { Page, PageQuery, RefundFilter, RefundRecord, Scope } from '../../records.js';
import { REFUND_COLUMNS, refundFromRow, refundToRow } from '../rows.js';
import { placeholders, type ScopedTable, SqlBase } from '../sql-base.js';

const REFUNDS: ScopedTable<RefundRecord> = { name: 'refunds', columns: REFUND_COLUMNS, fromRow: refundFromRow };

/** Refunds. */
export abstract class RefundQueries extends SqlBase {
  async insertRefund(f: RefundRecord): Promise<void> {
    await this.ex.run(`INSERT INTO refunds (${REFUND_COLUMNS}) VALUES (${placeholders(11)})`, refundToRow(f));
  }

  findRefundById(scope: Scope, id: string): Promise<RefundRecord | undefined> {
    return this.findInScope(REFUNDS, scope, id);
  }

  updateRefund(scope: Scope, id: string, patch: Partial<Pick<RefundRecord, 'status' | 'failureReason'>>): Promise<void> {
    return this.updateInScope('refunds', scope, id, patch, {
      status: ['status', (v) => v as string],
      failureReason: ['failure_reason', (v) => v as string | null],
    });
  }

  listRefunds(scope: Scope, filter: RefundFilter, page: PageQuery): Promise<Page<RefundRecord>> {
    return this.listInScope(REFUNDS, scope, { payment_id: filter.paymentId }, page);
  }
}
