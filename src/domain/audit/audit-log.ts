import { ApiError, resourceMissing } from '../../errors/api-error.js';
import { newId } from '../../lib/ids.js';
import { AUDIT_EVENT_TYPES, type AuditEventRecord, type AuditEventType, type AuditRequest } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { OperationContext } from '../context.js';
import { type ListObject, type ListParams, pageQuery, toList } from '../lists.js';
import { chainHash, GENESIS_HASH } from './chain.js';

/** An audit event before it has a place in its account's chain. */
export interface AuditDraft {
  id: string;
  accountId: string;
  livemode: boolean;
  type: AuditEventType;
  apiKeyId: string;
  request: AuditRequest | null;
  created: number;
}

export function auditDraft(
  type: AuditEventType,
  key: { id: string; accountId: string; livemode: boolean },
  nowMs: number,
  request: AuditRequest | null = null,
): AuditDraft {
  return {
    id: newId('aud', nowMs),
    accountId: key.accountId,
    livemode: key.livemode,
    type,
    apiKeyId: key.id,
    request,
    created: Math.floor(nowMs / 1000),
  };
}

/**
 * Appends events to their accounts' chains. Each account's chain head is locked for the rest of
 * the transaction (FOR UPDATE on PostgreSQL; SQLite has one writer), so appends are serialised
 * per account and `seq` order is commit order. Accounts are locked in id order: no deadlocks.
 */
export async function appendAuditEvents(store: Store, drafts: readonly AuditDraft[]): Promise<AuditEventRecord[]> {
  if (drafts.length === 0) return [];
  return store.transaction(async (tx) => {
    const byAccount = new Map<string, AuditDraft[]>();
    for (const d of drafts) {
      const list = byAccount.get(d.accountId);
      if (list) list.push(d);
      else byAccount.set(d.accountId, [d]);
    }
    const records: AuditEventRecord[] = [];
    for (const accountId of [...byAccount.keys()].sort()) {
      const head = await tx.lockAuditChainHead(accountId, GENESIS_HASH);
      let { seq, hash } = head;
      for (const d of byAccount.get(accountId) ?? []) {
        seq += 1;
        const unhashed = { ...d, seq };
        const record: AuditEventRecord = { ...unhashed, previousHash: hash, hash: chainHash(hash, unhashed) };
        hash = record.hash;
        records.push(record);
      }
      await tx.updateAuditChainHead({ accountId, seq, hash });
    }
    await tx.insertAuditEvents(records);
    return records;
  });
}

export interface AuditEventObject {
  id: string;
  object: 'audit_event';
  type: AuditEventType;
  api_key: string;
  request: AuditRequest | null;
  created: number;
  livemode: boolean;
  hash: string;
  previous_hash: string;
}

export function presentAuditEvent(e: AuditEventRecord): AuditEventObject {
  return {
    id: e.id,
    object: 'audit_event',
    type: e.type,
    api_key: e.apiKeyId,
    request: e.request,
    created: e.created,
    livemode: e.livemode,
    hash: e.hash,
    previous_hash: e.previousHash,
  };
}

export async function retrieveAuditEvent(store: Store, ctx: OperationContext, id: string): Promise<AuditEventObject> {
  const event = await store.findAuditEventById(ctx.scope, id);
  if (!event) throw resourceMissing('audit event', id, 'id');
  return presentAuditEvent(event);
}

export async function listAuditEvents(
  store: Store,
  ctx: OperationContext,
  params: ListParams & { type?: string; api_key?: string },
): Promise<ListObject<AuditEventObject>> {
  if (params.type !== undefined && !(AUDIT_EVENT_TYPES as readonly string[]).includes(params.type)) {
    throw new ApiError('parameter_invalid', `Unknown audit event type: '${params.type.slice(0, 80)}'.`, { param: 'type' });
  }
  const query = await pageQuery(params, 'aud', async (id) => (await store.findAuditEventById(ctx.scope, id)) !== undefined);
  const page = await store.listAuditEvents(ctx.scope, { type: params.type, apiKeyId: params.api_key }, query);
  return toList('/v1/audit_events', page, presentAuditEvent);
}
