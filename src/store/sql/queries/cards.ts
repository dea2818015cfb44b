import type { CardRecord, Scope, TokenRecord } from '../../records.js';
import { bool, CARD_COLUMNS, cardFromRow, cardToRow, TOKEN_COLUMNS, tokenFromRow, tokenToRow } from '../rows.js';
import { SqlBase, type Row, placeholders } from '../sql-base.js';

/** The card vault (sealed numbers) and single-use tokens. */
export abstract class CardQueries extends SqlBase {
  async insertCard(c: CardRecord): Promise<void> {
    await this.ex.run(`INSERT INTO cards (${CARD_COLUMNS}) VALUES (${placeholders(11)})`, cardToRow(c));
  }

  async findCardById(scope: Scope, id: string): Promise<CardRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${CARD_COLUMNS} FROM cards WHERE id = ? AND account_id = ? AND livemode = ?`, [
      id,
      scope.accountId,
      bool(scope.livemode),
    ]);
    return row && cardFromRow(row);
  }

  async listCardsNotSealedWith(version: number, limit: number): Promise<CardRecord[]> {
    const rows = await this.ex.all<Row>(`SELECT ${CARD_COLUMNS} FROM cards WHERE number_sealed NOT LIKE ? ORDER BY id LIMIT ?`, [
      `v${version}.%`,
      limit,
    ]);
    return rows.map(cardFromRow);
  }

  async updateCardSealedNumber(id: string, numberSealed: string): Promise<void> {
    await this.ex.run('UPDATE cards SET number_sealed = ? WHERE id = ?', [numberSealed, id]);
  }

  async insertToken(t: TokenRecord): Promise<void> {
    await this.ex.run(`INSERT INTO tokens (${TOKEN_COLUMNS}) VALUES (${placeholders(8)})`, tokenToRow(t));
  }

  async findTokenById(scope: Scope, id: string, options: { forUpdate?: boolean } = {}): Promise<TokenRecord | undefined> {
    const lock = options.forUpdate ? this.db.dialect.forUpdate : '';
    const row = await this.ex.get<Row>(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE id = ? AND account_id = ? AND livemode = ?${lock}`, [
      id,
      scope.accountId,
      bool(scope.livemode),
    ]);
    return row && tokenFromRow(row);
  }

  async consumeToken(scope: Scope, id: string, usedAt: number): Promise<boolean> {
    const changed = await this.ex.run(
      'UPDATE tokens SET used_at = ? WHERE id = ? AND account_id = ? AND livemode = ? AND used_at IS NULL',
      [usedAt, id, scope.accountId, bool(scope.livemode)],
    );
    return changed === 1;
  }

  async findTokenByCardId(cardId: string): Promise<TokenRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE card_id = ?`, [cardId]);
    return row && tokenFromRow(row);
  }

  async eraseTokenCvc(id: string): Promise<void> {
    await this.ex.run('UPDATE tokens SET cvc_sealed = NULL WHERE id = ?', [id]);
  }

  async eraseExpiredTokenCvcs(nowSeconds: number): Promise<number> {
    return this.ex.run('UPDATE tokens SET cvc_sealed = NULL WHERE expires_at < ? AND cvc_sealed IS NOT NULL', [nowSeconds]);
  }
}
