import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateKey } from '../../src/domain/api-keys/key-format.js';
import { BACKENDS } from '../helpers/backends.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

for (const backend of BACKENDS) {
  describe(`refusing keys takes the same time: ${backend.name}`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend, { keyCacheTtlMs: 2000 });
    });
    after(async () => t.close());

    test('an unknown key and a wrong key (a real one with one character changed) are refused alike, in the same time', async () => {
      const real = t.account.keys.secret_test;
      // A new near-miss each time (one character changed, at a different place): a key string seen
      // before is answered from the cache of unknown hashes, so both sides must be fresh strings.
      const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
      const wrongKey = (i: number) => {
        const at = real.length - 1 - (i % 24);
        const swapped = ALPHABET[(ALPHABET.indexOf(real[at] as string) + 1 + Math.floor(i / 24)) % ALPHABET.length];
        return real.slice(0, at) + swapped + real.slice(at + 1);
      };
      const samples = { unknown: [] as number[], wrong: [] as number[] };
      const refuse = async (key: string) => {
        const start = process.hrtime.bigint();
        const res = await t.call('GET', '/v1/payments', { key });
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        assert.equal(res.statusCode, 401);
        return { ms, body: res.json() };
      };
      for (let i = 0; i < 20; i++) await refuse(generateKey('secret', false)); // warm-up
      for (let i = 0; i < 300; i++) {
        // Interleaved, alternating first, so load on the machine hits both sides equally.
        const order = i % 2 ? (['unknown', 'wrong'] as const) : (['wrong', 'unknown'] as const);
        for (const kind of order) {
          const { ms, body } = await refuse(kind === 'wrong' ? wrongKey(i) : generateKey('secret', false));
          assert.equal(body.error.code, 'api_key_invalid');
          samples[kind].push(ms);
        }
      }
      const [u, w] = [median(samples.unknown), median(samples.wrong)];
      // Both take the same path (hash, one indexed lookup that misses, one constant-time compare);
      // the bound is generous so that a loaded 2-core machine does not make it flaky.
      assert.ok(Math.abs(u - w) <= Math.max(0.25, 0.35 * Math.min(u, w)), `median unknown ${u.toFixed(3)} ms vs wrong ${w.toFixed(3)} ms`);
    });
  });
}
