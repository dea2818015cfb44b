import { ApiError } from '../errors/api-error.js';
import type { Metadata } from '../store/records.js';

export const METADATA_MAX_KEYS = 50;
export const METADATA_KEY_MAX_LENGTH = 40;
export const METADATA_VALUE_MAX_LENGTH = 500;

/** Applies an update: keys set to null or "" are removed, others replaced. */
export function mergeMetadata(current: Metadata, update: Record<string, string | null>): Metadata {
  const merged: Metadata = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === null || value === '') delete merged[key];
    else merged[key] = value;
  }
  if (Object.keys(merged).length > METADATA_MAX_KEYS) {
    throw new ApiError('parameter_invalid', `Metadata can have at most ${METADATA_MAX_KEYS} keys.`, { param: 'metadata' });
  }
  return merged;
}

/** Metadata given at creation: empty-string values are simply not stored. */
export function initialMetadata(given: Record<string, string> | undefined): Metadata {
  return mergeMetadata({}, given ?? {});
}
