import { hash, timingSafeEqual } from 'node:crypto';

/** One-shot hash: no Hash object per call (every request hashes its key, every audit event its content). */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Constant-time comparison of a presented secret (a client secret) with the stored one. */
export function secretsEqual(stored: string | null | undefined, presented: string): boolean {
  if (!stored) return false;
  const left = Buffer.from(stored);
  const right = Buffer.from(presented);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** JSON with object keys sorted, so that equal values give equal strings. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}
