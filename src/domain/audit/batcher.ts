import type { Store } from '../../store/store.js';
import { type AuditDraft, appendAuditEvents } from './audit-log.js';

export interface AuditBatcherOptions {
  /** Queued events are committed at least this often (the crash window). */
  flushIntervalMs: number;
  /** A batch this large is committed at once, without waiting for the timer. */
  maxBatch: number;
  onError: (err: unknown) => void;
}

export interface QueuedAuditEvent {
  draft: AuditDraft;
  /** The key was refused as expired: log this `api_key.expired` event first, unless the key's expiry is logged already. */
  expired?: AuditDraft;
}

/**
 * Group commit for the audit events that are not part of a write's transaction (reads and
 * refused requests): queued in memory, committed in one transaction every `flushIntervalMs` or
 * every `maxBatch` events, and drained on close. A crash loses at most what is queued.
 */
export class AuditBatcher {
  private queue: QueuedAuditEvent[] = [];
  private readonly touched = new Map<string, number>();
  private running: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: Store,
    private readonly options: AuditBatcherOptions,
  ) {
    this.timer = setInterval(() => {
      if (this.pending > 0) this.flush().catch(() => {});
    }, options.flushIntervalMs);
    this.timer.unref();
  }

  get pending(): number {
    return this.queue.length + this.touched.size;
  }

  enqueue(item: QueuedAuditEvent): void {
    this.queue.push(item);
    this.touch(item.draft.apiKeyId, item.draft.created);
    if (this.queue.length >= this.options.maxBatch) this.flush().catch(() => {});
  }

  /** Records that a key was used at `at` (unix seconds); written with the next batch. */
  touch(keyId: string, at: number): void {
    if ((this.touched.get(keyId) ?? 0) < at) this.touched.set(keyId, at);
  }

  /** Commits everything queued so far; resolves when it is durable. */
  flush(): Promise<void> {
    const run = this.running.then(() => this.drain());
    this.running = run.catch(() => {});
    return run;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 || this.touched.size > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      const touched = this.queue.length === 0 ? [...this.touched] : [];
      if (this.queue.length === 0) this.touched.clear();
      try {
        await this.store.transaction(async (tx) => {
          const drafts: AuditDraft[] = [];
          for (const item of batch) {
            if (item.expired && (await tx.markApiKeyExpiryRecorded(item.draft.apiKeyId, item.draft.created))) drafts.push(item.expired);
            drafts.push(item.draft);
          }
          await appendAuditEvents(tx, drafts);
        });
      } catch (err) {
        // Keep the events for the next attempt; the caller's error handler logs the failure.
        this.queue.unshift(...batch);
        for (const [keyId, at] of touched) this.touch(keyId, at);
        this.options.onError(err);
        throw err;
      }
      // Outside the batch's transaction: holding key rows and a chain head together would
      // deadlock with a roll or revoke, which locks the key row first, then the head.
      try {
        for (const [keyId, at] of touched) await this.store.touchApiKey(keyId, at);
      } catch (err) {
        for (const [keyId, at] of touched) this.touch(keyId, at);
        this.options.onError(err);
        throw err;
      }
    }
  }
}
