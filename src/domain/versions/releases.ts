import { statusRenames } from './changes/2026-03-01-status-renames.js';
import { amountBreakdown } from './changes/2026-09-01-amount-breakdown.js';
import type { VersionChange } from './version-change.js';

export interface Release {
  /** The release date, `YYYY-MM-DD`: what `Service-Version` names. */
  id: string;
  /** What changed from the previous release. */
  changes: readonly VersionChange[];
}

/** API releases, oldest first. A new release goes at the end with its change modules. */
export const RELEASES: readonly Release[] = [
  { id: '2025-06-01', changes: [] },
  { id: '2026-03-01', changes: [statusRenames] },
  { id: '2026-09-01', changes: [amountBreakdown] },
];

export const FIRST_RELEASE = RELEASES[0]!.id;
export const LATEST_RELEASE = RELEASES[RELEASES.length - 1]!.id;
