import type { Scope } from '../store/records.js';

/** What a domain operation knows about the call: whose data, and when. */
export interface OperationContext {
  scope: Scope;
  /** Milliseconds; read once per request from the app's clock. */
  nowMs: number;
  /** The request that asked for it, recorded on events. */
  requestId?: string;
}

export const seconds = (ms: number): number => Math.floor(ms / 1000);
