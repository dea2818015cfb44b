import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  confirmCheckoutSession,
  createCheckoutSession,
  expireCheckoutSession,
  listCheckoutSessions,
  retrieveCheckoutSession,
} from '../../domain/checkout/sessions.js';
import { CARD_BRANDS } from '../../domain/tokens/card-rules.js';
import type { AppDeps } from '../deps.js';
import { clientSecretFor } from '../publishable.js';
import { operationContext, runStagedWrite, runWrite, sendObject, servicesFor } from '../render.js';
import {
  type ConfirmCheckoutSessionBody,
  ConfirmCheckoutSessionBody as ConfirmBody,
  type CreateCheckoutSessionBody,
  CreateCheckoutSessionBody as CreateBody,
  EmptyBody,
  type ListCheckoutSessionsQuery,
  ListCheckoutSessionsQuery as ListQuery,
  type RetrieveCheckoutSessionQuery,
  RetrieveCheckoutSessionQuery as RetrieveQuery,
} from '../schemas/checkout.js';
import { IdParams } from '../schemas/common.js';

const tags = ['Checkout'];
const Params = IdParams('cs');
type Params = { id: string };

export function registerCheckoutRoutes(app: FastifyInstance, { store, clock, payments }: AppDeps): void {
  const baseUrl = (req: Parameters<typeof servicesFor>[0]) => servicesFor(req, payments).publicBaseUrl;

  app.post(
    '/v1/checkout/sessions',
    {
      schema: {
        operationId: 'checkout.sessions.create',
        summary: 'Create a checkout session',
        description:
          'Creates a payment for the customer and a session that collects it: redirect the customer to `url` (the hosted page), or pay it in your page with the browser library and `client_secret`. The session expires after 24 hours (or at `expires_at`) and completes exactly once, with a `checkout.session.completed` event.',
        tags,
        body: CreateBody,
        response: { 200: Type.Ref('CheckoutSession') },
      },
    },
    (req, reply) =>
      runWrite(req, reply, store, clock, (tx, ctx) => createCheckoutSession(tx, ctx, req.body as CreateCheckoutSessionBody, baseUrl(req))),
  );

  app.get(
    '/v1/checkout/sessions',
    {
      schema: {
        operationId: 'checkout.sessions.list',
        summary: 'List checkout sessions, newest first',
        tags,
        querystring: ListQuery,
        response: { 200: Type.Ref('CheckoutSessionList') },
      },
    },
    async (req, reply) =>
      sendObject(
        reply,
        await listCheckoutSessions(store, operationContext(req, clock), req.query as ListCheckoutSessionsQuery, baseUrl(req)),
      ),
  );

  app.get(
    '/v1/checkout/sessions/:id',
    {
      schema: {
        operationId: 'checkout.sessions.retrieve',
        summary: 'Retrieve a checkout session',
        description: 'Secret keys read any session of the account; publishable keys (browsers) must send the session’s `client_secret`.',
        tags,
        params: Params,
        querystring: RetrieveQuery,
        response: { 200: Type.Ref('CheckoutSession') },
      },
    },
    async (req, reply) => {
      const secret = clientSecretFor(req, (req.query as RetrieveCheckoutSessionQuery).client_secret);
      const id = (req.params as Params).id;
      return sendObject(reply, await retrieveCheckoutSession(store, operationContext(req, clock), id, baseUrl(req), secret));
    },
  );

  app.post(
    '/v1/checkout/sessions/:id/confirm',
    {
      schema: {
        operationId: 'checkout.sessions.confirm',
        summary: 'Pay a checkout session with a card token (browsers: publishable key + client secret)',
        description:
          'Confirms the session’s payment with `payment_method` (a `tok_` token). Answers the session: `complete`, or still `open` with `payment_status: requires_action` and `next_action` when the card asks for authentication. A declined card answers 402 `card_error`; the session stays open for another card.',
        tags,
        params: Params,
        body: ConfirmBody,
        response: { 200: Type.Ref('CheckoutSession') },
      },
    },
    (req, reply) =>
      runStagedWrite(req, reply, clock, (ctx, seal) =>
        confirmCheckoutSession(
          store,
          ctx,
          (req.params as Params).id,
          req.body as ConfirmCheckoutSessionBody,
          servicesFor(req, payments),
          seal,
        ),
      ),
  );

  app.post(
    '/v1/checkout/sessions/:id/expire',
    {
      schema: {
        operationId: 'checkout.sessions.expire',
        summary: 'Expire an open checkout session now',
        description: 'The customer can no longer pay it; its payment, if untouched, is canceled (`abandoned`).',
        tags,
        params: Params,
        body: EmptyBody,
        response: { 200: Type.Ref('CheckoutSession') },
      },
    },
    (req, reply) =>
      runWrite(req, reply, store, clock, (tx, ctx) => expireCheckoutSession(tx, ctx, (req.params as Params).id, baseUrl(req))),
  );

  app.get(
    '/v1/checkout/config',
    {
      schema: {
        operationId: 'checkout.config.retrieve',
        summary: 'What a browser needs to start: the account’s name, mode and accepted card brands (publishable keys)',
        tags,
        response: { 200: Type.Ref('CheckoutConfig') },
      },
    },
    async (req, reply) => {
      const auth = req.auth as NonNullable<typeof req.auth>;
      return sendObject(reply, {
        object: 'checkout_config',
        livemode: auth.key.livemode,
        account_name: auth.account.name,
        card_brands: CARD_BRANDS.filter((b) => b !== 'unknown'),
        api_base: baseUrl(req),
      });
    },
  );
}
