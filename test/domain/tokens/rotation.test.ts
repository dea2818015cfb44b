import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { open, parseKeyring, sealedVersion } from '../../../src/domain/tokens/keyring.js';
import { createToken, rewrapCards } from '../../../src/domain/tokens/tokens.js';
import { BACKENDS } from '../../helpers/backends.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

const v1 = `v1:${Buffer.alloc(32, 7).toString('base64')}`;
const v2 = `v2:${Buffer.alloc(32, 9).toString('base64')}`;

for (const backend of BACKENDS) {
  describe(`card key rotation: ${backend.name}`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(async () => t.close());

    test('cards sealed under v1 are re-sealed under v2 and keep their fingerprint', async () => {
      const ctx = { scope: { accountId: t.account.account.id, livemode: false }, nowMs: t.clock.now() };
      const old = parseKeyring(v1);
      const token = await t.db.store.transaction((tx) =>
        createToken(tx, ctx, old, { card: { number: '4242424242424242', exp_month: 1, exp_year: 2031, cvc: '123' } }),
      );
      const rotated = parseKeyring(`${v2},${v1}`);
      assert.ok((await rewrapCards(t.db.store, rotated)) >= 1);
      assert.equal(await rewrapCards(t.db.store, rotated), 0);
      const card = await t.db.store.findCardById(ctx.scope, token.card.id);
      assert.ok(card);
      assert.equal(sealedVersion(card.numberSealed), 2);
      assert.equal(open(parseKeyring(v2), card.numberSealed, card.id), '4242424242424242');
      assert.equal(card.fingerprint, token.card.fingerprint);
    });
  });
}
