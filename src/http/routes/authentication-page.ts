import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { OperationContext } from '../../domain/context.js';
import { completeAuthentication, findPaymentByClientSecret } from '../../domain/payments/lifecycle.js';
import { CommittedFailure } from '../../errors/api-error.js';
import type { AppDeps } from '../deps.js';
import { escapeHtml, formatAmount, pageCsp, sendPage } from '../pages/html.js';
import { JSON_TYPE } from '../content-type.js';
import { servicesFor } from '../render.js';

const Params = Type.Object({ id: Type.String({ maxLength: 255 }) }, { additionalProperties: false });
const Query = Type.Object({ client_secret: Type.Optional(Type.String({ maxLength: 255 })) });
const Body = Type.Object(
  { client_secret: Type.String({ maxLength: 255 }), outcome: Type.Union([Type.Literal('succeed'), Type.Literal('fail')]) },
  { additionalProperties: false },
);

function page(id: string, clientSecret: string, amount: string, status: string): string {
  const waiting = status === 'requires_action';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Authenticate your payment</title>
<link rel="stylesheet" href="/js/checkout.css">
<script src="/js/authenticate-page.js" defer></script>
</head><body>
<main class="state" data-payment="${escapeHtml(id)}" data-client-secret="${escapeHtml(clientSecret)}">
<h1>Authenticate your payment</h1>
<p>Your bank asks you to confirm a payment of <strong>${escapeHtml(amount)}</strong>.</p>
<p id="status" role="status">${waiting ? 'This is a test authentication page: choose what the customer does.' : `Status: ${escapeHtml(status)}`}</p>
${waiting ? '<p><button id="complete" type="button">Complete</button> <button id="fail" type="button">Fail</button></p>' : ''}
</main>
</body></html>`;
}

/**
 * The page `next_action.redirect_to_url.url` points at: the customer completes or fails the
 * authentication their bank asked for. The payment's client secret authorises it (no API key),
 * and it shows nothing but the amount and status.
 */
export function registerAuthenticationPage(app: FastifyInstance, { store, clock, payments }: AppDeps): void {
  app.get('/authenticate/:id', { schema: { hide: true, params: Params, querystring: Query } }, async (req, reply) => {
    const { id } = req.params as { id: string };
    const secret = (req.query as { client_secret?: string }).client_secret ?? '';
    const payment = await findPaymentByClientSecret(store, id, secret);
    // Shown in a frame over the merchant's page or the hosted checkout, so any page may embed it.
    return sendPage(reply, page(payment.id, secret, formatAmount(payment.amount, payment.currency), payment.status), pageCsp('*'));
  });

  app.post('/authenticate/:id', { schema: { hide: true, params: Params, body: Body } }, async (req, reply) => {
    const { id } = req.params as { id: string };
    const body = req.body as { client_secret: string; outcome: 'succeed' | 'fail' };
    const payment = await findPaymentByClientSecret(store, id, body.client_secret);
    const ctx: OperationContext = {
      scope: { accountId: payment.accountId, livemode: payment.livemode },
      nowMs: clock.now(),
      requestId: req.id,
    };
    const result = await completeAuthentication(store, ctx, id, body.outcome, servicesFor(req, payments));
    if (result instanceof CommittedFailure) {
      return reply
        .code(result.error.status)
        .type(JSON_TYPE)
        .send(JSON.stringify(result.error.toBody(req.id)));
    }
    return reply.type(JSON_TYPE).send(JSON.stringify({ id: result.id, object: 'payment', status: result.status }));
  });
}
