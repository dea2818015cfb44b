import { LATEST_RELEASE, RELEASES } from './releases.js';

export function listVersions() {
  return {
    object: 'list' as const,
    data: [...RELEASES].reverse().map((release) => ({
      object: 'api_version' as const,
      id: release.id,
      changes: release.changes.length ? release.changes.map((c) => c.description) : ['First release.'],
    })),
    latest: LATEST_RELEASE,
  };
}
