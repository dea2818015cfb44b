import { PERMISSION_RESOURCES, type PermissionLevel, type PermissionResource, type Permissions } from '../../store/records.js';

export const LEVEL_RANK: Record<PermissionLevel, number> = { none: 0, read: 1, write: 2 };

/** The level a key grants on a resource; restricted keys only (secret keys grant everything). */
export function grantedLevel(permissions: Permissions | null, resource: PermissionResource): PermissionLevel {
  return permissions?.[resource] ?? 'none';
}

/** The first resource where `requested` asks for more than `granted` has, if any. */
export function exceedsPermissions(requested: Permissions, granted: Permissions | null): PermissionResource | undefined {
  return PERMISSION_RESOURCES.find((r) => LEVEL_RANK[requested[r] ?? 'none'] > LEVEL_RANK[grantedLevel(granted, r)]);
}

/** Drops `none` entries so that equal grants look equal. */
export function normalisePermissions(permissions: Permissions): Permissions {
  const out: Permissions = {};
  for (const r of PERMISSION_RESOURCES) {
    const level = permissions[r];
    if (level && level !== 'none') out[r] = level;
  }
  return out;
}
