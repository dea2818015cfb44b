import { setBounded } from '../../lib/bounded-map.js';
import type { AccountRecord, ApiKeyRecord } from '../../store/records.js';

export interface CachedKey {
  key: ApiKeyRecord;
  account: AccountRecord;
  fetchedAt: number;
}

/**
 * Keys by hash, so that a request costs no database read for its key. Entries live `ttlMs`;
 * a change made by this process (revoke, roll, account update) drops the entry at once, and a
 * change made by another instance is seen within `ttlMs` (docs/keys-and-audit.md states the bound).
 */
export class KeyCache {
  private readonly byHash = new Map<string, CachedKey>();
  /** Hashes no key has, with when that was seen: repeated bad keys cost no read either. */
  private readonly unknown = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(hash: string, nowMs: number): CachedKey | undefined {
    const entry = this.byHash.get(hash);
    if (!entry) return undefined;
    if (nowMs - entry.fetchedAt >= this.ttlMs) {
      this.byHash.delete(hash);
      return undefined;
    }
    return entry;
  }

  set(hash: string, entry: CachedKey): void {
    if (this.ttlMs > 0) setBounded(this.byHash, hash, entry, this.maxEntries);
  }

  /**
   * Whether `hash` was looked up and matched no key less than `ttlMs` ago. A key created since
   * cannot be in here: its secret is new and random, so nobody could have presented it before.
   */
  isUnknown(hash: string, nowMs: number): boolean {
    const seenAt = this.unknown.get(hash);
    if (seenAt === undefined) return false;
    if (nowMs - seenAt < this.ttlMs) return true;
    this.unknown.delete(hash);
    return false;
  }

  setUnknown(hash: string, nowMs: number): void {
    if (this.ttlMs > 0) setBounded(this.unknown, hash, nowMs, this.maxEntries);
  }

  forgetKey(keyId: string): void {
    for (const [hash, entry] of this.byHash) if (entry.key.id === keyId) this.byHash.delete(hash);
  }

  forgetAccount(accountId: string): void {
    for (const [hash, entry] of this.byHash) if (entry.account.id === accountId) this.byHash.delete(hash);
  }
}
