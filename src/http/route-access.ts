import type { PermissionResource } from '../store/records.js';

/**
 * Who may call each route: the one table that authentication, restricted-key permissions,
 * the OpenAPI document (`x-permission`) and the route-walking test all read.
 * `account` is not grantable to restricted keys: only secret keys manage the account.
 */
export type RouteAccess =
  | { auth: 'none' }
  | {
      auth: 'key';
      resource: PermissionResource | 'account';
      level: 'read' | 'write';
      /** Publishable keys may call it too (contract section 3). */
      publishable?: true;
    };

const read = (resource: PermissionResource | 'account'): RouteAccess => ({ auth: 'key', resource, level: 'read' });
const write = (resource: PermissionResource | 'account'): RouteAccess => ({ auth: 'key', resource, level: 'write' });
/** Publishable keys may call it too, on one object named by its client secret (src/http/publishable.ts). */
const browser = (resource: PermissionResource, level: 'read' | 'write'): RouteAccess => ({
  auth: 'key',
  resource,
  level,
  publishable: true,
});

export const ROUTE_ACCESS: Readonly<Record<string, RouteAccess>> = {
  'GET /healthz': { auth: 'none' },
  'GET /v1/openapi.json': { auth: 'none' },
  'GET /v1/versions': { auth: 'none' },

  'GET /v1/account': read('account'),
  'POST /v1/account': write('account'),

  'POST /v1/customers': write('customers'),
  'GET /v1/customers': read('customers'),
  'GET /v1/customers/:id': read('customers'),
  'POST /v1/customers/:id': write('customers'),
  'DELETE /v1/customers/:id': write('customers'),

  'POST /v1/payments': write('payments'),
  'GET /v1/payments': read('payments'),
  'GET /v1/payments/:id': read('payments'),
  'POST /v1/payments/:id': write('payments'),
  'POST /v1/payments/:id/confirm': browser('payments', 'write'),
  'POST /v1/payments/:id/capture': write('payments'),
  'POST /v1/payments/:id/cancel': write('payments'),
  'POST /v1/payments/:id/test_authentication': write('payments'),

  'POST /v1/tokens': { auth: 'key', resource: 'tokens', level: 'write', publishable: true },

  // Checkout: publishable keys act on one session through its client secret (src/http/publishable.ts).
  'POST /v1/checkout/sessions': write('checkout_sessions'),
  'GET /v1/checkout/sessions': read('checkout_sessions'),
  'GET /v1/checkout/sessions/:id': browser('checkout_sessions', 'read'),
  'POST /v1/checkout/sessions/:id/confirm': browser('checkout_sessions', 'write'),
  'POST /v1/checkout/sessions/:id/expire': write('checkout_sessions'),
  'GET /v1/checkout/config': browser('checkout_sessions', 'read'),

  // Browser pages and assets: public files; the hosted page is authorised by its unguessable session id.
  // CORS preflights (src/http/plugins/cors.ts): answered without a key, allowed only for publishable routes.
  'OPTIONS /*': { auth: 'none' },
  'GET /js/:file': { auth: 'none' },
  'GET /elements/card': { auth: 'none' },
  'GET /checkout/:id': { auth: 'none' },
  'POST /checkout/:id/pay': { auth: 'none' },

  'POST /v1/refunds': write('refunds'),
  'GET /v1/refunds': read('refunds'),
  'GET /v1/refunds/:id': read('refunds'),

  // The hosted authentication page: the payment's client secret authorises it, not a key.
  'GET /authenticate/:id': { auth: 'none' },
  'POST /authenticate/:id': { auth: 'none' },

  'GET /v1/events': read('events'),
  'GET /v1/events/:id': read('events'),

  'POST /v1/webhook_endpoints': write('webhook_endpoints'),
  'GET /v1/webhook_endpoints': read('webhook_endpoints'),
  'GET /v1/webhook_endpoints/:id': read('webhook_endpoints'),
  'POST /v1/webhook_endpoints/:id': write('webhook_endpoints'),
  'DELETE /v1/webhook_endpoints/:id': write('webhook_endpoints'),
  'GET /v1/webhook_endpoints/:id/attempts': read('webhook_endpoints'),
  'POST /v1/api_keys': write('api_keys'),
  'GET /v1/api_keys': read('api_keys'),
  'GET /v1/api_keys/:id': read('api_keys'),
  'POST /v1/api_keys/:id': write('api_keys'),
  'POST /v1/api_keys/:id/roll': write('api_keys'),
  'POST /v1/api_keys/:id/revoke': write('api_keys'),

  'GET /v1/audit_events': read('audit_events'),
  'GET /v1/audit_events/:id': read('audit_events'),
};

export function routeKey(method: string, url: string): string {
  return `${method} ${url}`;
}
