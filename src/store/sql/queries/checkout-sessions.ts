import type { CheckoutSessionRecord, CheckoutSessionStatus, Page, PageQuery, Scope } from '../../records.js';
import { CHECKOUT_SESSION_COLUMN_COUNT, CHECKOUT_SESSION_COLUMNS, checkoutSessionFromRow, checkoutSessionToRow } from '../checkout-rows.js';
import type { SqlValue } from '../database.js';
import { pageClause, toPage } from '../pagination.js';
import { bool } from '../rows.js';
import { SqlBase, type Row, placeholders } from '../sql-base.js';

/** Checkout sessions. */
export abstract class CheckoutSessionQueries extends SqlBase {
  async insertCheckoutSession(s: CheckoutSessionRecord): Promise<void> {
    await this.ex.run(
      `INSERT INTO checkout_sessions (${CHECKOUT_SESSION_COLUMNS}) VALUES (${placeholders(CHECKOUT_SESSION_COLUMN_COUNT)})`,
      checkoutSessionToRow(s),
    );
  }

  async findCheckoutSessionById(
    scope: Scope,
    id: string,
    options: { forUpdate?: boolean } = {},
  ): Promise<CheckoutSessionRecord | undefined> {
    const lock = options.forUpdate ? this.db.dialect.forUpdate : '';
    const row = await this.ex.get<Row>(
      `SELECT ${CHECKOUT_SESSION_COLUMNS} FROM checkout_sessions WHERE id = ? AND account_id = ? AND livemode = ?${lock}`,
      [id, scope.accountId, bool(scope.livemode)],
    );
    return row && checkoutSessionFromRow(row);
  }

  async findCheckoutSessionByIdInAnyAccount(id: string): Promise<CheckoutSessionRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${CHECKOUT_SESSION_COLUMNS} FROM checkout_sessions WHERE id = ?`, [id]);
    return row && checkoutSessionFromRow(row);
  }

  async findCheckoutSessionByClientSecret(clientSecret: string): Promise<CheckoutSessionRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${CHECKOUT_SESSION_COLUMNS} FROM checkout_sessions WHERE client_secret = ?`, [clientSecret]);
    return row && checkoutSessionFromRow(row);
  }

  async listCheckoutSessions(
    scope: Scope,
    filter: { paymentId?: string | undefined },
    page: PageQuery,
  ): Promise<Page<CheckoutSessionRecord>> {
    const clause = pageClause(page);
    let where = 'account_id = ? AND livemode = ?';
    const params: SqlValue[] = [scope.accountId, bool(scope.livemode)];
    if (filter.paymentId !== undefined) {
      where += ' AND payment_id = ?';
      params.push(filter.paymentId);
    }
    const rows = await this.ex.all<Row>(
      `SELECT ${CHECKOUT_SESSION_COLUMNS} FROM checkout_sessions WHERE ${where}${clause.where}${clause.order}`,
      [...params, ...clause.params],
    );
    return toPage(rows.map(checkoutSessionFromRow), page.limit, clause.reversed);
  }

  async updateCheckoutSessionStatus(
    id: string,
    from: CheckoutSessionStatus,
    to: CheckoutSessionStatus,
    completedAt?: number,
  ): Promise<boolean> {
    const changed = await this.ex.run('UPDATE checkout_sessions SET status = ?, completed_at = ? WHERE id = ? AND status = ?', [
      to,
      completedAt ?? null,
      id,
      from,
    ]);
    return changed === 1;
  }

  async findOpenCheckoutSessionByPayment(paymentId: string): Promise<CheckoutSessionRecord | undefined> {
    const row = await this.ex.get<Row>(
      `SELECT ${CHECKOUT_SESSION_COLUMNS} FROM checkout_sessions WHERE payment_id = ? AND status = 'open'`,
      [paymentId],
    );
    return row && checkoutSessionFromRow(row);
  }
}
