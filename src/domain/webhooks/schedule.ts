import { DAY, HOUR, MINUTE } from '../../lib/clock.js';

/** Retries stop this long after a delivery's first attempt; the last one lands exactly at the end. */
export const RETRY_WINDOW_MS = 3 * DAY;
export const FIRST_RETRY_DELAY_MS = MINUTE;
export const MAX_RETRY_DELAY_MS = 12 * HOUR;
/** Up to this fraction is added to each delay, so failed deliveries do not retry in lockstep. */
export const RETRY_JITTER = 0.1;
/** An endpoint whose every attempt has failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 3 * DAY;

/** Delay before retry number `attemptsMade` (1 after the first failure): 1 min, 2, 4, ... capped at 12 h. */
export function retryDelayMs(attemptsMade: number, random: number): number {
  const base = Math.min(MAX_RETRY_DELAY_MS, FIRST_RETRY_DELAY_MS * 2 ** Math.max(0, attemptsMade - 1));
  return base + Math.floor(base * RETRY_JITTER * random);
}

/** When to try a failed delivery again, or null to give up (the retry window is over). */
export function nextAttemptAt(attemptsMade: number, firstAttemptedAt: number, nowMs: number, random: number): number | null {
  const deadline = firstAttemptedAt + RETRY_WINDOW_MS;
  if (nowMs >= deadline) return null;
  return Math.min(nowMs + retryDelayMs(attemptsMade, random), deadline);
}

/** Whether an endpoint, as it stands after a failed attempt at `nowMs`, has failed long enough to be disabled. */
export function shouldDisable(failingSince: number | null, nowMs: number): boolean {
  return failingSince !== null && nowMs - failingSince >= DISABLE_AFTER_FAILING_MS;
}

export function isSuccessStatus(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}
