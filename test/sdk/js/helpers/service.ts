import { buildApp } from '../../../../src/app.js';
import { createAccount, type NewAccount } from '../../../../src/domain/accounts/create-account.js';
import { issueKey } from '../../../../src/domain/api-keys/issue-key.js';
import { systemClock } from '../../../../src/lib/clock.js';
import type { Permissions } from '../../../../src/store/records.js';
import type { Backend } from '../../../helpers/backends.js';

/** The real service listening on a loopback port, with one account, for the SDK to talk to over HTTP. */
export interface SdkService {
  url: string;
  keys: NewAccount['keys'];
  /** A restricted test key with just these permissions. */
  restrictedKey(permissions: Permissions): Promise<string>;
  close(): Promise<void>;
}

export async function startService(backend: Backend): Promise<SdkService> {
  const db = await backend.open();
  const account = await createAccount(db.store, systemClock, 'SDK tests');
  const app = await buildApp({ store: db.store, logLevel: 'silent', keyCacheTtlMs: 0 });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    keys: account.keys,
    restrictedKey: async (permissions) =>
      (await issueKey(db.store, systemClock, { accountId: account.account.id, livemode: false, kind: 'restricted', permissions })).secret,
    async close() {
      await app.close();
      await db.destroy();
    },
  };
}
