import type { ApiKeyRecord, Page, PageQuery, Scope } from '../../records.js';
import { pageClause, toPage } from '../pagination.js';
import { API_KEY_COLUMNS, API_KEY_UPDATABLE, apiKeyFromRow, apiKeyToRow, bool, setClause } from '../rows.js';
import { SqlBase, type Row, placeholders } from '../sql-base.js';

/** API keys, found by the hash of the key. */
export abstract class ApiKeyQueries extends SqlBase {
  async insertApiKey(k: ApiKeyRecord): Promise<void> {
    await this.ex.run(`INSERT INTO api_keys (${API_KEY_COLUMNS}) VALUES (${placeholders(14)})`, apiKeyToRow(k));
  }

  async findApiKeyByHash(secretHash: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE secret_hash = ?`, [secretHash]);
    return row && apiKeyFromRow(row);
  }

  async findApiKeyById(accountId: string, id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE id = ? AND account_id = ?`, [id, accountId]);
    return row && apiKeyFromRow(row);
  }

  async listApiKeys(accountId: string, livemode?: boolean): Promise<ApiKeyRecord[]> {
    const rows =
      livemode === undefined
        ? await this.ex.all<Row>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE account_id = ? ORDER BY id DESC`, [accountId])
        : await this.ex.all<Row>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE account_id = ? AND livemode = ? ORDER BY id DESC`, [
            accountId,
            bool(livemode),
          ]);
    return rows.map(apiKeyFromRow);
  }

  async updateApiKey(
    id: string,
    patch: Partial<Pick<ApiKeyRecord, 'revokedAt' | 'expiresAt' | 'lastUsedAt' | 'name' | 'note'>>,
  ): Promise<void> {
    const { sql, params } = setClause(patch, API_KEY_UPDATABLE);
    if (sql) await this.ex.run(`UPDATE api_keys SET ${sql} WHERE id = ?`, [...params, id]);
  }

  async listApiKeysPage(scope: Scope, page: PageQuery): Promise<Page<ApiKeyRecord>> {
    const clause = pageClause(page);
    const rows = await this.ex.all<Row>(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE account_id = ? AND livemode = ?${clause.where}${clause.order}`,
      [scope.accountId, bool(scope.livemode), ...clause.params],
    );
    return toPage(rows.map(apiKeyFromRow), page.limit, clause.reversed);
  }

  async markApiKeyExpiryRecorded(id: string, at: number): Promise<boolean> {
    return (await this.ex.run('UPDATE api_keys SET expiry_recorded_at = ? WHERE id = ? AND expiry_recorded_at IS NULL', [at, id])) === 1;
  }

  async listExpiredUnrecordedApiKeys(nowSeconds: number, limit: number): Promise<ApiKeyRecord[]> {
    const rows = await this.ex.all<Row>(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE expiry_recorded_at IS NULL AND expires_at <= ? ORDER BY expires_at, id LIMIT ?`,
      [nowSeconds, limit],
    );
    return rows.map(apiKeyFromRow);
  }

  async touchApiKey(id: string, at: number): Promise<void> {
    await this.ex.run('UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)', [at, id, at]);
  }
}
