import type { AccountRecord } from '../../records.js';
import type { AccountPatch } from '../../store.js';
import { accountFromRow, setClause } from '../rows.js';
import { SqlBase, type Row } from '../sql-base.js';

/** Accounts. */
export abstract class AccountQueries extends SqlBase {
  async insertAccount(a: AccountRecord): Promise<void> {
    await this.ex.run(
      'INSERT INTO accounts (id, name, default_version, created, rate_limit_per_second, rate_limit_burst) VALUES (?, ?, ?, ?, ?, ?)',
      [a.id, a.name, a.defaultVersion, a.created, a.rateLimitPerSecond ?? null, a.rateLimitBurst ?? null],
    );
  }

  async findAccountById(id: string): Promise<AccountRecord | undefined> {
    const row = await this.ex.get<Row>(
      'SELECT id, name, default_version, created, rate_limit_per_second, rate_limit_burst FROM accounts WHERE id = ?',
      [id],
    );
    return row && accountFromRow(row);
  }

  async countAccounts(): Promise<number> {
    const row = await this.ex.get<{ n: number }>('SELECT COUNT(*) AS n FROM accounts');
    return Number(row?.n ?? 0);
  }

  async updateAccount(id: string, patch: AccountPatch): Promise<void> {
    const { sql, params } = setClause(patch, {
      name: ['name', (v) => v as string],
      defaultVersion: ['default_version', (v) => v as string],
      rateLimitPerSecond: ['rate_limit_per_second', (v) => v as number | null],
      rateLimitBurst: ['rate_limit_burst', (v) => v as number | null],
    });
    if (sql) await this.ex.run(`UPDATE accounts SET ${sql} WHERE id = ?`, [...params, id]);
  }
}
