import { ApiError } from '../../errors/api-error.js';
import { FIRST_RELEASE, RELEASES, type Release } from './releases.js';
import type { VersionChange, WireObject } from './version-change.js';

const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(value: string): boolean {
  const m = DATE_SHAPE.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value;
}

function invalid(message: string): ApiError {
  return new ApiError('api_version_invalid', message, { param: 'Service-Version' });
}

/**
 * Resolves a `Service-Version` value to a release: a date that names no release resolves to the
 * newest release on or before it. Malformed, earlier than the first release or in the future: 400.
 */
export function resolveVersion(requested: string, nowMs: number): string {
  if (!isCalendarDate(requested)) {
    throw invalid(`Invalid Service-Version: '${requested.slice(0, 40)}'. Use a date of the form YYYY-MM-DD.`);
  }
  if (requested < FIRST_RELEASE) {
    throw invalid(`Service-Version ${requested} is before the first API release (${FIRST_RELEASE}).`);
  }
  const today = new Date(nowMs).toISOString().slice(0, 10);
  if (requested > today) throw invalid(`Service-Version ${requested} is in the future.`);
  let resolved = FIRST_RELEASE;
  for (const release of RELEASES) if (release.id <= requested) resolved = release.id;
  return resolved;
}

function changesAfter(version: string): VersionChange[] {
  const changes: VersionChange[] = [];
  for (let i = RELEASES.length - 1; i >= 0; i--) {
    const release = RELEASES[i] as Release;
    if (release.id <= version) break;
    changes.push(...release.changes);
  }
  return changes; // newest first
}

const cache = new Map<string, VersionChange[]>();
function changesFor(version: string): VersionChange[] {
  let changes = cache.get(version);
  if (!changes) {
    changes = changesAfter(version);
    cache.set(version, changes);
  }
  return changes;
}

function downgradeTree(value: unknown, change: VersionChange): unknown {
  if (Array.isArray(value)) return value.map((item) => downgradeTree(item, change));
  if (value === null || typeof value !== 'object') return value;
  const object = value as WireObject;
  let out: WireObject = object;
  for (const [key, child] of Object.entries(object)) {
    if (child !== null && typeof child === 'object') {
      const next = downgradeTree(child, change);
      if (next !== child) out = out === object ? { ...object, [key]: next } : Object.assign(out, { [key]: next });
    }
  }
  const transform = typeof out.object === 'string' ? change.downgradeObject?.[out.object] : undefined;
  return transform ? transform(out) : out;
}

/** Rewrites a response body of the newest shape into the shape of `version`. */
export function downgradeResponse(body: unknown, version: string): unknown {
  let out = body;
  for (const change of changesFor(version)) if (change.downgradeObject) out = downgradeTree(out, change);
  return out;
}

/** Rewrites request parameters sent in the shape of `version` into the newest shape. */
export function upgradeParams(route: string, params: WireObject, version: string): WireObject {
  let out = params;
  const changes = changesFor(version);
  for (let i = changes.length - 1; i >= 0; i--) {
    const upgrade = changes[i]?.upgradeParams?.[route];
    if (upgrade) out = upgrade(out);
  }
  return out;
}

export function isLatest(version: string): boolean {
  return changesFor(version).length === 0;
}
