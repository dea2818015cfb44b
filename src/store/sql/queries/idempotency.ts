import type { IdempotencyRecord, Scope } from '../../records.js';
import type { ClaimResult } from '../../store.js';
import { bool, idempotencyFromRow } from '../rows.js';
import { SqlBase, type Row } from '../sql-base.js';

/** Idempotency keys and their stored responses. */
export abstract class IdempotencyQueries extends SqlBase {
  async claimIdempotencyKey(r: IdempotencyRecord, staleBefore: number): Promise<ClaimResult> {
    return this.withTransaction(async (ex) => {
      const inserted = await ex.run(
        `INSERT INTO idempotency_keys (account_id, livemode, idem_key, method, path, request_hash, state, created, locked_at)
         VALUES (?, ?, ?, ?, ?, ?, 'in_progress', ?, ?) ON CONFLICT DO NOTHING`,
        [r.accountId, bool(r.livemode), r.key, r.method, r.path, r.requestHash, r.created, r.lockedAt],
      );
      if (inserted === 1) return { claimed: true, record: r };
      const row = await ex.get<Row>(
        `SELECT * FROM idempotency_keys WHERE account_id = ? AND livemode = ? AND idem_key = ?${this.db.dialect.forUpdate}`,
        [r.accountId, bool(r.livemode), r.key],
      );
      if (!row) throw new Error('idempotency key vanished during claim');
      const existing = idempotencyFromRow(row);
      // A claim whose process died before finishing leaves no result; after a while it may be retaken.
      const sameRequest = existing.method === r.method && existing.path === r.path && existing.requestHash === r.requestHash;
      if (existing.state === 'in_progress' && existing.lockedAt < staleBefore && sameRequest) {
        await ex.run('UPDATE idempotency_keys SET locked_at = ? WHERE account_id = ? AND livemode = ? AND idem_key = ?', [
          r.lockedAt,
          r.accountId,
          bool(r.livemode),
          r.key,
        ]);
        return { claimed: true, record: { ...existing, lockedAt: r.lockedAt } };
      }
      return { claimed: false, record: existing };
    });
  }

  async findIdempotencyKey(scope: Scope, key: string): Promise<IdempotencyRecord | undefined> {
    const row = await this.ex.get<Row>('SELECT * FROM idempotency_keys WHERE account_id = ? AND livemode = ? AND idem_key = ?', [
      scope.accountId,
      bool(scope.livemode),
      key,
    ]);
    return row && idempotencyFromRow(row);
  }

  async completeIdempotencyKey(scope: Scope, key: string, status: number, body: string): Promise<void> {
    await this.ex.run(
      `UPDATE idempotency_keys SET state = 'done', response_status = ?, response_body = ?
       WHERE account_id = ? AND livemode = ? AND idem_key = ?`,
      [status, body, scope.accountId, bool(scope.livemode), key],
    );
  }

  async releaseIdempotencyKey(scope: Scope, key: string): Promise<void> {
    await this.ex.run(`DELETE FROM idempotency_keys WHERE account_id = ? AND livemode = ? AND idem_key = ? AND state = 'in_progress'`, [
      scope.accountId,
      bool(scope.livemode),
      key,
    ]);
  }

  async purgeIdempotencyKeys(createdBefore: number): Promise<number> {
    return this.ex.run('DELETE FROM idempotency_keys WHERE created < ?', [createdBefore]);
  }
}
