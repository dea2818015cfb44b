import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AuditDraft, appendAuditEvents, auditDraft } from '../../domain/audit/audit-log.js';
import type { AuditBatcher } from '../../domain/audit/batcher.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditRequest } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { scrub } from '../logging.js';

const USER_AGENT_MAX = 512;
const PATH_MAX = 1024;

/** What the audit log keeps of a request: what was asked and how it ended, never what was sent. */
export function auditRequest(req: FastifyRequest, status: number): AuditRequest {
  const agent = req.headers['user-agent'];
  return {
    id: req.id,
    method: req.method,
    path: scrub((req.url.split('?', 1)[0] ?? '').slice(0, PATH_MAX)),
    status,
    ip: req.ip,
    user_agent: typeof agent === 'string' ? scrub(agent.slice(0, USER_AGENT_MAX)) : null,
  };
}

function usedEvent(req: FastifyRequest, status: number, nowMs: number): AuditDraft | undefined {
  return req.auditKey ? auditDraft('api_key.used', req.auditKey, nowMs, auditRequest(req, status)) : undefined;
}

/**
 * Contract section 4: one `api_key.used` event per request made with a recognised key, refused
 * ones (401 revoked/expired, 403) included. A write's event commits inside the write's
 * transaction (runWrite calls `auditInTransaction`); every other request's event goes through
 * the batcher after the response.
 */
export function installAudit(app: FastifyInstance, clock: Clock, batcher: AuditBatcher | null): void {
  // One function shared by every request (no closure, no preHandler hook per request).
  async function auditInTransaction(this: FastifyRequest, tx: Store, status: number): Promise<void> {
    const draft = usedEvent(this, status, clock.now());
    if (draft) await appendAuditEvents(tx, [draft]);
  }
  app.decorateRequest('auditKey', null);
  app.decorateRequest('auditKeyExpiredAt', null);
  app.decorateRequest('auditInTransaction', batcher ? auditInTransaction : null);
  app.decorateRequest('auditRecorded', false);
  if (!batcher) return;

  app.addHook('onResponse', (req, reply, done) => {
    const key = req.auditKey;
    if (!key) return done();
    const nowMs = clock.now();
    if (req.auditRecorded) {
      batcher.touch(key.id, Math.floor(nowMs / 1000));
      return done();
    }
    // An expired key's first refusal is preceded by its `api_key.expired` event (written once per key).
    const expiredAt = req.auditKeyExpiredAt;
    const expired = expiredAt === null ? undefined : auditDraft('api_key.expired', key, Math.min(nowMs, expiredAt * 1000));
    const draft = usedEvent(req, reply.statusCode, nowMs);
    if (draft) batcher.enqueue(expired ? { draft, expired } : { draft });
    done();
  });

  app.addHook('onClose', async () => {
    await batcher.close();
  });
}
