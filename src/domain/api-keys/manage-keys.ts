import { ApiError } from '../../errors/api-error.js';
import { DAY } from '../../lib/clock.js';
import type { ApiKeyKind, ApiKeyRecord, AuditRequest, Permissions } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { appendAuditEvents, auditDraft } from '../audit/audit-log.js';
import { type OperationContext, seconds } from '../context.js';
import { type ListObject, type ListParams, pageQuery, toList } from '../lists.js';
import { issueKey } from './issue-key.js';
import { exceedsPermissions, normalisePermissions } from './permissions.js';
import { type ApiKeyObject, presentKey } from './present.js';

/** During a roll the old key keeps working this long (spec section 5), or until its own expiry. */
export const ROLL_OVERLAP_MS = 1 * DAY;

/**
 * Who manages keys: the key of an API request (which may never hand out more than it has), or
 * the operator at the CLI (null), who may manage any key of the account in either mode.
 */
export type KeyActor = ApiKeyRecord | null;

export interface KeyChangeContext extends OperationContext {
  actor: KeyActor;
  /** The API request, for the audit log; null from the CLI. */
  request: AuditRequest | null;
}

export interface CreateKeyInput {
  kind: ApiKeyKind;
  name?: string | undefined;
  note?: string | undefined;
  permissions?: Permissions | undefined;
}

const clockAt = (nowMs: number) => ({ now: () => nowMs });

function refuse(message: string): ApiError {
  return new ApiError('insufficient_scope', message);
}

/** A restricted key may only act on restricted keys whose permissions are each within its own. */
function assertActorCovers(actor: KeyActor, kind: ApiKeyKind, permissions: Permissions | null): void {
  if (actor === null || actor.kind === 'secret') return;
  if (kind !== 'restricted') {
    throw refuse(`A restricted key can only manage restricted keys, not ${kind} keys. Use a secret key.`);
  }
  const over = exceedsPermissions(permissions ?? {}, actor.permissions);
  if (over) {
    throw refuse(`A key cannot grant more than it has: this key's access to ${over} is lower than requested.`);
  }
}

async function findKey(store: Store, ctx: KeyChangeContext | OperationContext, id: string): Promise<ApiKeyRecord> {
  const key = await store.findApiKeyById(ctx.scope.accountId, id);
  const operator = 'actor' in ctx && ctx.actor === null;
  if (!key) throw new ApiError('resource_missing', `No such API key: '${id.slice(0, 80)}'.`, { param: 'id', status: 404 });
  if (!operator && key.livemode !== ctx.scope.livemode) {
    throw new ApiError(
      'livemode_mismatch',
      `The API key '${id}' exists in ${key.livemode ? 'live' : 'test'} mode, but this request used a ${ctx.scope.livemode ? 'live' : 'test'} mode key.`,
    );
  }
  return key;
}

export async function createKey(store: Store, ctx: KeyChangeContext, input: CreateKeyInput): Promise<ApiKeyObject> {
  if (input.kind === 'restricted' && input.permissions === undefined) {
    throw new ApiError('parameter_missing', 'Missing required param: permissions (restricted keys need them).', { param: 'permissions' });
  }
  if (input.kind !== 'restricted' && input.permissions !== undefined) {
    throw new ApiError(
      'parameter_invalid',
      `Only restricted keys take permissions; a ${input.kind} key can do everything its kind allows.`,
      {
        param: 'permissions',
      },
    );
  }
  const permissions = input.permissions === undefined ? null : normalisePermissions(input.permissions);
  assertActorCovers(ctx.actor, input.kind, permissions);
  const { record, secret } = await issueKey(store, clockAt(ctx.nowMs), {
    accountId: ctx.scope.accountId,
    livemode: ctx.scope.livemode,
    kind: input.kind,
    name: input.name ?? null,
    note: input.note ?? null,
    permissions,
    request: ctx.request,
  });
  return presentKey(record, secret);
}

function assertUsable(key: ApiKeyRecord, nowSeconds: number, action: string): void {
  if (key.revokedAt !== null && key.revokedAt <= nowSeconds) {
    throw new ApiError('parameter_invalid', `You cannot ${action} a revoked key.`, { param: 'id' });
  }
  if (key.expiresAt !== null && key.expiresAt <= nowSeconds) {
    throw new ApiError('parameter_invalid', `You cannot ${action} an expired key; create a new one instead.`, { param: 'id' });
  }
}

/**
 * Issues a key of the same kind, permissions, name and note; the old one stays valid for the
 * overlap only (or until its own expiry, if sooner). Logs `api_key.rolled` on the old key and
 * `api_key.created` on the new one.
 */
export async function rollKey(
  store: Store,
  ctx: KeyChangeContext,
  id: string,
): Promise<{ previous: ApiKeyRecord; record: ApiKeyRecord; object: ApiKeyObject }> {
  return store.transaction(async (tx) => {
    const old = await findKey(tx, ctx, id);
    assertActorCovers(ctx.actor, old.kind, old.permissions);
    const nowSeconds = seconds(ctx.nowMs);
    assertUsable(old, nowSeconds, 'roll');
    const overlapEnd = nowSeconds + ROLL_OVERLAP_MS / 1000;
    const expiresAt = old.expiresAt === null ? overlapEnd : Math.min(old.expiresAt, overlapEnd);
    await tx.updateApiKey(old.id, { expiresAt });
    await appendAuditEvents(tx, [auditDraft('api_key.rolled', old, ctx.nowMs, ctx.request)]);
    const { record, secret } = await issueKey(tx, clockAt(ctx.nowMs), {
      accountId: old.accountId,
      livemode: old.livemode,
      kind: old.kind,
      name: old.name,
      note: old.note,
      permissions: old.permissions,
      request: ctx.request,
    });
    return { previous: { ...old, expiresAt }, record, object: presentKey(record, secret) };
  });
}

export async function revokeKey(store: Store, ctx: KeyChangeContext, id: string): Promise<ApiKeyRecord> {
  return store.transaction(async (tx) => {
    const key = await findKey(tx, ctx, id);
    assertActorCovers(ctx.actor, key.kind, key.permissions);
    if (key.revokedAt !== null) throw new ApiError('parameter_invalid', 'This key is already revoked.', { param: 'id' });
    const nowSeconds = seconds(ctx.nowMs);
    await tx.updateApiKey(key.id, { revokedAt: nowSeconds });
    await appendAuditEvents(tx, [auditDraft('api_key.revoked', key, ctx.nowMs, ctx.request)]);
    return { ...key, revokedAt: nowSeconds };
  });
}

export async function updateKey(
  store: Store,
  ctx: KeyChangeContext,
  id: string,
  patch: { name?: string | null | undefined; note?: string | null | undefined },
): Promise<ApiKeyObject> {
  const key = await findKey(store, ctx, id);
  assertActorCovers(ctx.actor, key.kind, key.permissions);
  const change = { name: patch.name === '' ? null : patch.name, note: patch.note === '' ? null : patch.note };
  await store.updateApiKey(key.id, change);
  return presentKey({ ...key, ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) });
}

export async function retrieveKey(store: Store, ctx: OperationContext, id: string): Promise<ApiKeyObject> {
  return presentKey(await findKey(store, ctx, id));
}

export async function listKeys(store: Store, ctx: OperationContext, params: ListParams): Promise<ListObject<ApiKeyObject>> {
  const query = await pageQuery(
    params,
    'key',
    async (id) => (await store.findApiKeyById(ctx.scope.accountId, id))?.livemode === ctx.scope.livemode,
  );
  return toList('/v1/api_keys', await store.listApiKeysPage(ctx.scope, query), (k) => presentKey(k));
}
