import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { type AppOptions, buildApp } from '../../src/app.js';
import { createAccount, type NewAccount } from '../../src/domain/accounts/create-account.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { Backend, TestStore } from './backends.js';

let counter = 0;
/** A fresh idempotency key for each call. */
export const idem = () => `test-${process.pid}-${Date.now()}-${++counter}`;

export interface TestApp {
  app: FastifyInstance;
  db: TestStore;
  clock: ManualClock;
  account: NewAccount;
  /** Sends a request with the account's secret test key unless `key` says otherwise. */
  call(method: string, url: string, options?: CallOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  idempotencyKey?: string | null;
  remoteAddress?: string;
}

export async function createTestApp(
  backend: Backend,
  options: {
    keyCacheTtlMs?: number;
    trustProxy?: boolean | string[];
    logStream?: NodeJS.WritableStream;
    rateLimit?: AppOptions['rateLimit'];
    maxInFlight?: number;
  } = {},
): Promise<TestApp> {
  const db = await backend.open();
  const clock = new ManualClock(Date.UTC(2026, 10, 1, 12, 0, 0));
  const account = await createAccount(db.store, clock, 'Test account');
  const app = await buildApp({
    store: db.store,
    clock,
    logLevel: options.logStream ? 'info' : 'silent',
    keyCacheTtlMs: options.keyCacheTtlMs ?? 0,
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    ...(options.maxInFlight ? { maxInFlight: options.maxInFlight } : {}),
  });
  return {
    app,
    db,
    clock,
    account,
    call(method, url, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      const key = o.key === undefined ? account.keys.secret_test : o.key;
      if (key !== null) headers.authorization = `Bearer ${key}`;
      if ((method === 'POST' || method === 'PUT') && o.idempotencyKey !== null) {
        headers['idempotency-key'] ??= o.idempotencyKey ?? idem();
      }
      const request: InjectOptions = { method: method as InjectOptions['method'], url, headers };
      if (o.body !== undefined) {
        headers['content-type'] ??= 'application/json';
        request.payload = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
      } else if (method === 'POST' || method === 'PUT') {
        headers['content-type'] ??= 'application/json';
      }
      if (o.remoteAddress) request.remoteAddress = o.remoteAddress;
      return app.inject(request);
    },
    async close() {
      await app.close();
      await db.destroy();
    },
  };
}
