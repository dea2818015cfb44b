import type { Clock } from '../../lib/clock.js';
import type { Store } from '../../store/store.js';
import { createAccount, type NewAccount } from './create-account.js';

/** On an empty database, creates the sandbox account that a first `npm start` prints keys for. */
export async function createSandboxIfEmpty(store: Store, clock: Clock): Promise<NewAccount | undefined> {
  if ((await store.countAccounts()) > 0) return undefined;
  return createAccount(store, clock, 'Sandbox');
}
