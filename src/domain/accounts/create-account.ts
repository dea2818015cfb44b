import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { AccountRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { issueKey } from '../api-keys/issue-key.js';
import { LATEST_RELEASE } from '../versions/releases.js';

export interface NewAccount {
  account: AccountRecord;
  keys: { secret_test: string; secret_live: string; publishable_test: string; publishable_live: string };
}

/** Creates an account on the newest API version with its four first keys, in one transaction. */
export async function createAccount(store: Store, clock: Clock, name: string): Promise<NewAccount> {
  return store.transaction(async (tx) => {
    const nowMs = clock.now();
    const account: AccountRecord = {
      id: newId('acct', nowMs),
      name,
      defaultVersion: LATEST_RELEASE,
      created: Math.floor(nowMs / 1000),
    };
    await tx.insertAccount(account);
    const key = (kind: 'secret' | 'publishable', livemode: boolean) =>
      issueKey(tx, clock, { accountId: account.id, livemode, kind }).then((k) => k.secret);
    return {
      account,
      keys: {
        secret_test: await key('secret', false),
        secret_live: await key('secret', true),
        publishable_test: await key('publishable', false),
        publishable_live: await key('publishable', true),
      },
    };
  });
}
