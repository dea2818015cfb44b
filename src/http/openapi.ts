import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { LATEST_RELEASE, RELEASES } from '../domain/versions/releases.js';
import { ERROR_CODES, ERROR_TYPES } from '../errors/registry.js';
import { ROUTE_ACCESS, routeKey } from './route-access.js';
import { Account, ApiVersion, Health, VersionList } from './schemas/account.js';
import { ApiKey, ApiKeyList, NewApiKey } from './schemas/api-keys.js';
import { AuditEvent, AuditEventList } from './schemas/audit-events.js';
import { CheckoutConfig, CheckoutSession, CheckoutSessionList } from './schemas/checkout.js';
import { ErrorObject } from './schemas/common.js';
import { Customer, CustomerList, DeletedCustomer } from './schemas/customers.js';
import { Event, EventList } from './schemas/events.js';
import { CardSummary, Payment, PaymentList } from './schemas/payments.js';
import { Refund, RefundList } from './schemas/refunds.js';
import { Card, Token } from './schemas/tokens.js';
import {
  DeletedWebhookEndpoint,
  WebhookAttempt,
  WebhookAttemptList,
  WebhookEndpoint,
  WebhookEndpointList,
} from './schemas/webhook-endpoints.js';

/** Response components, registered once so routes can `$ref` them by `$id`. */
const COMPONENTS = [
  ErrorObject,
  Account,
  ApiVersion,
  VersionList,
  Health,
  Customer,
  DeletedCustomer,
  CustomerList,
  CardSummary,
  Payment,
  PaymentList,
  Event,
  EventList,
  Card,
  Token,
  Refund,
  RefundList,
  WebhookEndpoint,
  DeletedWebhookEndpoint,
  WebhookEndpointList,
  WebhookAttempt,
  WebhookAttemptList,
  ApiKey,
  NewApiKey,
  ApiKeyList,
  AuditEvent,
  AuditEventList,
  CheckoutSession,
  CheckoutSessionList,
  CheckoutConfig,
];

type Operation = Record<string, unknown> & { parameters?: unknown[]; responses?: Record<string, unknown> };
type Document = Record<string, unknown> & {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
};

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Invalid request: a parameter, the Idempotency-Key or the Service-Version is wrong.',
  '401': 'No valid API key.',
  '403': 'The key may not do this (scope, environment or HTTPS).',
  '404': 'No such object or route.',
  '402': 'The card was declined or its data is wrong (card_error, with decline_code).',
  '409': 'A request with the same Idempotency-Key is in progress.',
  '413': 'Body larger than 64 KiB.',
  '415': 'Write without Content-Type: application/json.',
  '429': 'Rate limit of the account and mode exceeded (docs/limits.md): retry after the `Retry-After` seconds.',
  '500': 'Server fault.',
  '503': 'Shutting down, overloaded (service_overloaded, with `Retry-After`), or (live mode) no payment processor configured.',
};

/** On every authenticated response (docs/limits.md). */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: 'Size of the account’s token bucket (its burst).', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left right now.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the bucket is full again.', schema: { type: 'integer' } },
};

function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
}

/** Adds what the routes' schemas cannot say: shared headers, error responses, permissions, error codes. */
function decorate(doc: Document): Document {
  doc.components.parameters = {
    ServiceVersion: {
      name: 'Service-Version',
      in: 'header',
      required: false,
      description: 'Pins the API version (YYYY-MM-DD). Absent: the account’s default version.',
      schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', enum: RELEASES.map((r) => r.id) },
    },
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      description: 'Makes the request safe to retry: 1–255 printable ASCII characters, kept 24 hours.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    },
  };
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const access = ROUTE_ACCESS[routeKey(method.toUpperCase(), path.replace(/\{(\w+)\}/g, ':$1'))];
      operation['x-permission'] = access ?? null;
      for (const parameter of (operation.parameters ?? []) as Record<string, unknown>[]) {
        const schema = parameter.schema as { anyOf?: { type?: string }[]; type?: string } | undefined;
        const isObject = schema?.type === 'object' || schema?.anyOf?.some((s) => s.type === 'object');
        if (parameter.in === 'query' && isObject) Object.assign(parameter, { style: 'deepObject', explode: true });
      }
      if (!access || access.auth === 'none') {
        operation.responses ??= {};
        operation.responses['400'] = errorResponse('Invalid Service-Version, or an API key in the query string (401).');
        continue;
      }
      operation.parameters ??= [];
      const parameters = operation.parameters;
      parameters.push({ $ref: '#/components/parameters/ServiceVersion' });
      if (method === 'post' || method === 'put') parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
      operation.responses ??= {};
      const responses = operation.responses;
      for (const [status, description] of Object.entries(ERROR_STATUSES)) {
        if ((status === '409' || status === '402') && method !== 'post') continue;
        if ((status === '413' || status === '415') && method !== 'post') continue;
        responses[status] = errorResponse(description);
      }
      const retryAfter = { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } };
      (responses['429'] as Record<string, unknown>).headers = { 'Retry-After': retryAfter };
      for (const status of Object.keys(responses).filter((s) => s.startsWith('2'))) {
        const response = responses[status] as Record<string, unknown>;
        response.headers = { ...(response.headers as object | undefined), ...RATE_LIMIT_HEADERS };
      }
    }
  }
  doc['x-error-types'] = [...ERROR_TYPES];
  doc['x-error-codes'] = Object.entries(ERROR_CODES).map(([code, spec]) => ({ code, ...spec }));
  return doc;
}

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  for (const schema of COMPONENTS) app.addSchema(schema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Payments Service API',
        version: LATEST_RELEASE,
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'Payments, customers and keys over HTTPS JSON. Authenticate with `Authorization: Bearer <API_KEY>`; send `Idempotency-Key` on every POST; pin a version with `Service-Version`.',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: service_*, rk_* or (where allowed) pk_*.' },
        },
      },
      security: [{ bearerAuth: [] }],
      servers: [{ url: 'http://127.0.0.1:4242', description: 'A local service started with `npm start`' }],
      tags: [
        { name: 'Payments', description: 'Payments for customers, in the currency’s minor unit.' },
        { name: 'Refunds', description: 'Money returned to the customer, never more than was captured.' },
        { name: 'Tokens', description: 'Card details exchanged for a single-use token (publishable keys allowed).' },
        { name: 'Customers', description: 'The people and businesses that pay.' },
        { name: 'Account', description: 'The account the key belongs to, and its default API version.' },
        { name: 'Events', description: 'What happened, recorded with every change.' },
        { name: 'Webhook endpoints', description: 'Where events are sent, signed, with retries for up to 3 days.' },
        { name: 'API keys', description: 'Secret, publishable and restricted keys: create, roll, revoke.' },
        { name: 'Audit events', description: 'Every key’s creation, use, roll, revocation and expiry, hash-chained.' },
        { name: 'Meta', description: 'Health, API versions and this document; no key needed.' },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => String((json as { $id?: string }).$id ?? `def-${i}`),
    },
    transformObject: (documentObject) => decorate((documentObject as { openapiObject: Document }).openapiObject),
  });
}
