/** A token bucket: `burst` tokens at most, refilled at `perSecond`; each request takes one. */
export interface BucketLimit {
  perSecond: number;
  burst: number;
}

export interface BucketState {
  tokens: number;
  updatedMs: number;
}

/** What a check answers, and what the RateLimit-* headers say. */
export interface Decision {
  allowed: boolean;
  /** The bucket's size: how many requests may arrive at once. */
  limit: number;
  /** Whole requests left right now. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** When refused: seconds until one request will be allowed (at least 1). */
  retryAfterSeconds: number;
}

export const DEFAULT_LIMIT: BucketLimit = { perSecond: 100, burst: 200 };

/** The account's own limit where the operator set one, else the service default. */
export function limitFor(
  account: { rateLimitPerSecond?: number | null; rateLimitBurst?: number | null },
  fallback: BucketLimit,
): BucketLimit {
  return { perSecond: account.rateLimitPerSecond ?? fallback.perSecond, burst: account.rateLimitBurst ?? fallback.burst };
}

/** Refills for the time since the last check, then takes one token if there is one. */
export function takeToken(state: BucketState | undefined, limit: BucketLimit, nowMs: number): { state: BucketState; allowed: boolean } {
  let tokens = limit.burst;
  let updatedMs = nowMs;
  if (state) {
    // A clock that stepped back refills nothing; it never takes tokens away.
    const elapsed = Math.max(0, nowMs - state.updatedMs);
    tokens = Math.min(limit.burst, state.tokens + (elapsed * limit.perSecond) / 1000);
    updatedMs = Math.max(nowMs, state.updatedMs);
  }
  const allowed = tokens >= 1;
  return { state: { tokens: allowed ? tokens - 1 : tokens, updatedMs }, allowed };
}

/** The decision for the tokens left after a check (the Redis script answers the same two values). */
export function decide(allowed: boolean, tokensLeft: number, limit: BucketLimit): Decision {
  return {
    allowed,
    limit: limit.burst,
    remaining: Math.max(0, Math.floor(tokensLeft)),
    resetSeconds: Math.max(0, Math.ceil((limit.burst - tokensLeft) / limit.perSecond)),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokensLeft) / limit.perSecond)),
  };
}
