import type { CheckoutSessionRecord, CheckoutSessionStatus, Page, PageQuery, Scope } from '../../records.js';
import { CHECKOUT_SESSION_COLUMN_COUNT, CHECKOUT_SESSION_COLUMNS, checkoutSessionFromRow, checkoutSessionToRow } from '../checkout-rows.js';
import { placeholders, type Row, type ScopedTable, SqlBase } from '../sql-base.js';

const SESSIONS: ScopedTable<CheckoutSessionRecord> = {
  name: 'checkout_sessions',
  columns: CHECKOUT_SESSION_COLUMNS,
  fromRow: checkoutSessionFromRow,
};

/** Checkout sessions. */
export abstract class CheckoutSessionQueries extends SqlBase {
  async insertCheckoutSession(s: CheckoutSessionRecord): Promise<void> {
    await this.ex.run(
      `INSERT INTO checkout_sessions (${CHECKOUT_SESSION_COLUMNS}) VALUES (${placeholders(CHECKOUT_SESSION_COLUMN_COUNT)})`,
      checkoutSessionToRow(s),
    );
  }

  findCheckoutSessionById(scope: Scope, id: string, options: { forUpdate?: boolean } = {}): Promise<CheckoutSessionRecord | undefined> {
    return this.findInScope(SESSIONS, scope, id, options.forUpdate);
  }

  async findCheckoutSessionByIdInAnyAccount(id: string): Promise<CheckoutSessionRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${CHECKOUT_SESSION_COLUMNS} FROM checkout_sessions WHERE id = ?`, [id]);
    return row && checkoutSessionFromRow(row);
  }

  async findCheckoutSessionByClientSecret(clientSecret: string): Promise<CheckoutSessionRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${CHECKOUT_SESSION_COLUMNS} FROM checkout_sessions WHERE client_secret = ?`, [clientSecret]);
    return row && checkoutSessionFromRow(row);
  }

  listCheckoutSessions(scope: Scope, filter: { paymentId?: string | undefined }, page: PageQuery): Promise<Page<CheckoutSessionRecord>> {
    return this.listInScope(SESSIONS, scope, { payment_id: filter.paymentId }, page);
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
