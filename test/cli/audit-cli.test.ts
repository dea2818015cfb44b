import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main.js';
import { chainHash, GENESIS_HASH } from '../../src/domain/audit/chain.js';
import { purgeExportedAuditEvents } from '../../src/domain/audit/retention.js';
import { DAY, ManualClock } from '../../src/lib/clock.js';
import { BACKENDS, type TestStore } from '../helpers/backends.js';

for (const backend of BACKENDS) {
  describe(`payments keys / audit CLI: ${backend.name}`, () => {
    let db: TestStore;
    let account: string;
    const clock = new ManualClock(Date.UTC(2026, 0, 10, 12));
    const dirs: string[] = [];

    async function cli(...argv: string[]): Promise<{ code: number; lines: string[] }> {
      const lines: string[] = [];
      const code = await runCli(argv, (l) => lines.push(l), { store: db, clock });
      return { code, lines };
    }
    const json = async (...argv: string[]) => JSON.parse((await cli(...argv, '--json')).lines.join('\n'));

    before(async () => {
      db = await backend.open();
      account = (await json('accounts', 'create', '--name', 'CLI')).account;
    });
    after(async () => {
      await db.destroy();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });

    test('keys create / list / roll / revoke', async () => {
      const worker = await json(
        'keys',
        'create',
        '--account',
        account,
        '--kind',
        'restricted',
        '--permissions',
        'payments=read,events=write',
        '--name',
        'reports',
        '--note',
        'cron on db-2',
      );
      assert.match(worker.secret, /^rk_test_/);
      assert.deepEqual(worker.permissions, { payments: 'read', events: 'write' });
      const live = await json('keys', 'create', '--account', account, '--kind', 'secret', '--live');
      assert.match(live.secret, /^service_live_/);
      const bad = await cli('keys', 'create', '--account', account, '--kind', 'restricted', '--permissions', 'vault=read').catch(
        (e: Error) => e,
      );
      assert.ok(bad instanceof Error && /Unknown resource 'vault'/.test(bad.message));

      const listed = await cli('keys', 'list', '--account', account);
      assert.ok(listed.lines.some((l) => l.includes(worker.id) && l.includes('reports — cron on db-2')));
      assert.ok(!listed.lines.join('\n').includes(worker.secret));

      const rolled = await json('keys', 'roll', worker.id, '--account', account);
      assert.match(rolled.secret, /^rk_test_/);
      assert.equal(rolled.previous.expires_at, Math.floor(clock.now() / 1000) + 24 * 3600);
      assert.equal((await cli('keys', 'revoke', rolled.id, '--account', account)).lines[0], `Revoked ${rolled.id}.`);
      const types = (await db.store.listAuditEvents({ accountId: account, livemode: false }, {}, { limit: 100 })).rows.map((e) => e.type);
      assert.ok(types.includes('api_key.rolled') && types.includes('api_key.revoked'));
    });

    test('audit tail prints the newest events as JSON lines; --follow prints new ones as they commit', async () => {
      const tail = await cli('audit', 'tail', '--account', account, '--limit', '3');
      assert.equal(tail.lines.length, 3);
      const last = JSON.parse(tail.lines[2] as string);
      assert.equal(last.type, 'api_key.revoked');
      assert.equal(last.account, account);

      const lines: string[] = [];
      const controller = new AbortController();
      const following = runCli(['audit', 'tail', '--follow', '--limit', '0'], (l) => lines.push(l), {
        store: db,
        clock,
        signal: controller.signal,
        followIntervalMs: 20,
      });
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(lines.length, 0);
      const created = await json('keys', 'create', '--account', account, '--kind', 'publishable');
      for (let i = 0; i < 100 && lines.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      controller.abort();
      assert.equal(await following, 0);
      assert.equal(lines.length, 1);
      assert.equal(JSON.parse(lines[0] as string).api_key, created.id);
    });

    test('audit verify passes an intact chain and reports the first link broken by editing, rehashing or deleting rows', async () => {
      const ok = await cli('audit', 'verify', '--account', account);
      assert.equal(ok.code, 0, ok.lines.join('\n'));
      assert.match(ok.lines[0] as string, / ok {2}\d+ events/);

      const other = (await json('accounts', 'create')).account;
      await json('keys', 'create', '--account', other, '--kind', 'publishable');
      await json('keys', 'create', '--account', other, '--kind', 'publishable');
      const chain = await db.store.listAuditEventsBySeq(other, 0, 100);
      assert.equal(chain.length, 6);
      const victim = chain[2]!;
      // Someone with database access edits a row: the hash no longer matches the content.
      await db.database.run('UPDATE audit_events SET request = ? WHERE id = ?', [
        '{"id":"req_x","method":"GET","path":"/","status":200,"ip":"1.1.1.1","user_agent":null}',
        victim.id,
      ]);
      let report = await cli('audit', 'verify', '--account', other);
      assert.equal(report.code, 3);
      assert.match(report.lines[0] as string, new RegExp(`BROKEN at seq 3 \\(${victim.id}\\): hash does not match`));

      // ...and rehashes it: now the next event's previous_hash gives it away.
      const edited = (await db.store.listAuditEventsBySeq(other, 2, 1))[0]!;
      await db.database.run('UPDATE audit_events SET hash = ? WHERE id = ?', [chainHash(edited.previousHash, edited), victim.id]);
      report = await cli('audit', 'verify', '--account', other);
      assert.match(report.lines[0] as string, /BROKEN at seq 4 .*previous_hash does not match the hash of event 3/);

      // Deleting the last event is caught by the chain head.
      await db.database.run('DELETE FROM audit_events WHERE id = ?', [chain[5]!.id]);
      const all = await cli('audit', 'verify', '--json');
      assert.equal(all.code, 3);
      const reports = all.lines.map((l) => JSON.parse(l));
      const broken = reports.find((r) => r.accountId === other);
      assert.equal(broken.ok, false);
      assert.equal(broken.seq, 4, 'still the first broken link');
      assert.ok(reports.some((r) => r.accountId === account && r.ok));
      await db.database.run('DELETE FROM audit_events WHERE id = ?', [chain[1]!.id]);
      report = await cli('audit', 'verify', '--account', other);
      assert.match(report.lines[0] as string, /BROKEN at seq 2 .*event 2 is missing/);
      assert.equal((await cli('audit', 'verify', '--account', account)).code, 0, 'other chains are unaffected');

      // Cutting off the newest events is caught by the chain head.
      const third = (await json('accounts', 'create')).account;
      const tail = await db.store.listAuditEventsBySeq(third, 0, 100);
      await db.database.run('DELETE FROM audit_events WHERE id = ?', [tail[tail.length - 1]!.id]);
      report = await cli('audit', 'verify', '--account', third);
      assert.equal(report.code, 3);
      assert.match(report.lines[0] as string, /BROKEN at seq 4: the chain ends at event 3 but its head records 4 events/);
    });

    test('audit export writes JSON Lines, purges what it wrote, and the rest still verifies', async () => {
      const out = mkdtempSync(join(tmpdir(), 'audit-export-'));
      dirs.push(out);
      const before = await db.store.listAuditEventsBySeq(account, 0, 1000);
      clock.advance(DAY);
      await json('keys', 'create', '--account', account, '--kind', 'publishable');
      const cutoff = new Date(clock.now() - 1000).toISOString();
      const result = await json('audit', 'export', '--before', cutoff, '--out', out, '--account', account);
      assert.equal(result.exported, before.length);
      assert.equal(result.purged, before.length);
      const file = readdirSync(out).find((f) => f.endsWith('.jsonl'));
      assert.ok(file);
      const lines = readFileSync(join(out, file), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.deepEqual(
        lines.map((l) => l.id),
        before.map((e) => e.id),
      );
      // The file is a chain on its own, from the genesis hash.
      let previous = GENESIS_HASH;
      for (const l of lines) {
        const record = { ...l, accountId: l.account, apiKeyId: l.api_key, previousHash: l.previous_hash };
        assert.equal(l.previous_hash, previous);
        assert.equal(chainHash(previous, record), l.hash);
        previous = l.hash;
      }
      const remaining = await db.store.listAuditEventsBySeq(account, 0, 1000);
      assert.equal(remaining.length, 1);
      assert.equal(remaining[0]?.previousHash, previous);
      const verify = await cli('audit', 'verify', '--account', account);
      assert.equal(verify.code, 0, verify.lines.join('\n'));
      assert.match(verify.lines[0] as string, /1 events \(seq \d+–\d+\)/);
      const again = await json('audit', 'export', '--before', cutoff, '--out', out, '--account', account);
      assert.equal(again.exported, 0, 'nothing twice');
    });

    test('the server’s purge deletes only exported events past retention, and counts the unexported ones', async () => {
      const acct = (await json('accounts', 'create')).account;
      const out = mkdtempSync(join(tmpdir(), 'audit-keep-'));
      dirs.push(out);
      clock.advance(DAY);
      const cut = new Date(clock.now()).toISOString();
      const exported = await json('audit', 'export', '--before', cut, '--out', out, '--account', acct, '--keep');
      assert.equal(exported.exported, 4);
      assert.equal(exported.purged, 0);
      await json('keys', 'create', '--account', acct, '--kind', 'publishable');
      clock.advance(100 * DAY);
      const result = await purgeExportedAuditEvents(db.store, clock.now(), 90);
      assert.ok(result.purged >= 4);
      assert.ok(result.unexportedPastRetention >= 1, 'the unexported event is kept');
      const left = await db.store.listAuditEventsBySeq(acct, 0, 100);
      assert.deepEqual(
        left.map((e) => e.seq),
        [5],
      );
      assert.equal((await cli('audit', 'verify', '--account', acct)).code, 0);
    });
  });
}
