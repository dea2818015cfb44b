import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { appendAuditEvents, auditDraft } from '../../../src/domain/audit/audit-log.js';
import { GENESIS_HASH, hashedContent } from '../../../src/domain/audit/chain.js';
import { verifyAuditChain } from '../../../src/domain/audit/verify.js';
import { canonicalJson } from '../../../src/lib/hash.js';
import { newId } from '../../../src/lib/ids.js';
import { BACKENDS, type TestStore } from '../../helpers/backends.js';

for (const backend of BACKENDS) {
  describe(`audit chain appends: ${backend.name}`, () => {
    let db: TestStore;
    const accounts = [newId('acct'), newId('acct')];
    before(async () => {
      db = await backend.open();
      for (const id of accounts) await db.store.insertAccount({ id, name: 'A', defaultVersion: '2026-09-01', created: 1 });
    });
    after(async () => db.destroy());

    test('concurrent transactions over two accounts append gap-free chains that verify', async () => {
      const key = (accountId: string) => ({ id: newId('key'), accountId, livemode: false });
      await Promise.all(
        Array.from({ length: 40 }, (_, i) => {
          // Batches that touch both accounts, in both orders, next to single appends.
          const drafts = [auditDraft('api_key.used', key(accounts[i % 2]!), Date.now())];
          if (i % 3 === 0) drafts.push(auditDraft('api_key.used', key(accounts[(i + 1) % 2]!), Date.now()));
          return appendAuditEvents(db.store, drafts);
        }),
      );
      for (const accountId of accounts) {
        const chain = await db.store.listAuditEventsBySeq(accountId, 0, 1000);
        assert.deepEqual(
          chain.map((e) => e.seq),
          chain.map((_, i) => i + 1),
        );
        assert.equal(chain[0]?.previousHash, GENESIS_HASH);
        const report = await verifyAuditChain(db.store, accountId);
        assert.equal(report.ok, true, JSON.stringify(report));
      }
      const heads = await db.store.listAuditChainHeads();
      const total = heads.filter((h) => accounts.includes(h.accountId)).reduce((n, h) => n + h.seq, 0);
      assert.equal(total, 40 + 14);
    });

    test('a failed transaction leaves neither its events nor a moved head', async () => {
      const accountId = accounts[0]!;
      const before = (await db.store.listAuditChainHeads()).find((h) => h.accountId === accountId);
      await assert.rejects(
        db.store.transaction(async (tx) => {
          await appendAuditEvents(tx, [auditDraft('api_key.used', { id: newId('key'), accountId, livemode: true }, Date.now())]);
          throw new Error('the write failed');
        }),
        /the write failed/,
      );
      assert.deepEqual(
        (await db.store.listAuditChainHeads()).find((h) => h.accountId === accountId),
        before,
      );
      assert.equal((await verifyAuditChain(db.store, accountId)).ok, true);
    });
  });
}

for (const backend of BACKENDS) {
  describe(`audit chain verification while instances append: ${backend.name}`, () => {
    test('events committed after the head was read are not reported as deleted', async () => {
      const db = await backend.open();
      try {
        const accountId = newId('acct');
        await db.store.insertAccount({ id: accountId, name: 'A', defaultVersion: '2026-09-01', created: 1 });
        const key = { id: newId('key'), accountId, livemode: false };
        await appendAuditEvents(db.store, [auditDraft('api_key.used', key, Date.now())]);
        // Another instance commits an event between the verifier's read of the head and its walk.
        let appended = false;
        const racing = new Proxy(db.store, {
          get(target, prop, receiver) {
            if (prop === 'listAuditEventsBySeq' && !appended) {
              appended = true;
              return async (...args: Parameters<typeof target.listAuditEventsBySeq>) => {
                await appendAuditEvents(target, [auditDraft('api_key.used', key, Date.now())]);
                return target.listAuditEventsBySeq(...args);
              };
            }
            return Reflect.get(target, prop, receiver);
          },
        });
        const report = await verifyAuditChain(racing, accountId);
        assert.equal(report.ok, true, JSON.stringify(report));
        assert.equal((report as { lastSeq: number }).lastSeq, 1);
        assert.equal((await verifyAuditChain(db.store, accountId)).ok, true);
      } finally {
        await db.destroy();
      }
    });
  });
}

test('the hashed content is the canonical JSON of the event, whatever its fields hold', () => {
  const canonical = (e: Parameters<typeof hashedContent>[0]) =>
    canonicalJson({
      account: e.accountId,
      seq: e.seq,
      id: e.id,
      object: 'audit_event',
      type: e.type,
      api_key: e.apiKeyId,
      request: e.request,
      created: e.created,
      livemode: e.livemode,
    });
  const request = { id: 'req_1', method: 'GET', path: '/v1/payments/"x"\u2028', status: 200, ip: '::1', user_agent: null };
  const base = { id: 'aud_1', accountId: 'acct_1', livemode: false, type: 'api_key.used' as const, apiKeyId: 'key_1', created: 1, seq: 7 };
  const variants: unknown[] = [
    request,
    null,
    { ...request, user_agent: 'curl/8 \\ "q"' },
    { ...request, status: undefined },
    { user_agent: 'x', status: 1, path: '/', method: 'GET', ip: '1', id: 'r' }, // another key order
    { ...request, extra: { b: 1, a: [2, { d: 3, c: 4 }] } }, // an altered row
    { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 }, // six other keys
    { ...request, ip: { nested: true } },
  ];
  for (const v of variants) {
    const e = { ...base, request: v as never };
    assert.equal(hashedContent(e), canonical(e), JSON.stringify(v));
  }
  assert.equal(
    hashedContent({ ...base, request, livemode: undefined as never }),
    canonical({ ...base, request, livemode: undefined as never }),
  );
});
