import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { confirmCheckoutSession, retrieveCheckoutSession } from '../../domain/checkout/sessions.js';
import type { OperationContext } from '../../domain/context.js';
import { createToken } from '../../domain/tokens/tokens.js';
import { CommittedFailure, resourceMissing } from '../../errors/api-error.js';
import { secretsEqual } from '../../lib/hash.js';
import type { AppDeps } from '../deps.js';
import { cardFieldsHtml, escapeHtml, formatAmount, pageCsp, sendPage } from '../pages/html.js';
import { JSON_TYPE } from '../content-type.js';
import { servicesFor } from '../render.js';
import { Text } from '../schemas/common.js';

/** packages/browser/dist, found from src/http/routes (tsx) or dist/src/http/routes (built). */
function assetsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'packages', 'browser', 'dist');
    if (existsSync(join(candidate, 'payments.js'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('packages/browser/dist not found: run `npm run build:browser`');
}

const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };
const ASSETS = [
  'payments.js',
  'payments.global.js',
  'card-element.js',
  'checkout-page.js',
  'authenticate-page.js',
  'card-element.css',
  'checkout.css',
] as const;

const FileParams = Type.Object({ file: Type.String({ maxLength: 64 }) }, { additionalProperties: false });
const SessionParams = Type.Object({ id: Type.String({ maxLength: 255 }) }, { additionalProperties: false });
const PayBody = Type.Object(
  {
    client_secret: Text(255, { minLength: 1 }),
    card: Type.Object(
      {
        number: Text(64),
        exp_month: Type.Integer(),
        exp_year: Type.Integer(),
        cvc: Text(8),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
type PayBody = { client_secret: string; card: { number: string; exp_month: number; exp_year: number; cvc: string } };

function shell(title: string, css: string, script: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/js/${css}">
<script src="/js/${script}" defer></script>
</head><body>
${body}
</body></html>`;
}

/**
 * What browsers load from the service: the library and frame scripts under /js/, the card
 * element (/elements/card, embeddable anywhere, talks to its parent only by postMessage) and
 * the hosted checkout page (/checkout/:id, never embeddable). Strict CSP on every page: no
 * inline script or style, no third-party request.
 */
export function registerBrowserRoutes(app: FastifyInstance, { store, clock, payments }: AppDeps): void {
  const dir = assetsDir();
  const files = new Map(ASSETS.map((name) => [name, readFileSync(join(dir, name))]));

  app.get('/js/:file', { schema: { hide: true, params: FileParams } }, async (req, reply) => {
    const name = (req.params as { file: string }).file;
    const file = files.get(name as (typeof ASSETS)[number]);
    if (!file) throw resourceMissing('file', name, 'file');
    // Public, key-free files: any page may load them (module scripts are fetched with CORS).
    reply.header('Access-Control-Allow-Origin', '*');
    reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
    reply.header('Cache-Control', 'public, max-age=300');
    reply.header('X-Content-Type-Options', 'nosniff');
    return reply.type(TYPES[name.split('.').pop() as string] as string).send(file);
  });

  app.get('/elements/card', { schema: { hide: true } }, async (_req, reply) => {
    const html = shell('Card details', 'card-element.css', 'card-element.js', `<form id="card-form" novalidate>${cardFieldsHtml()}</form>`);
    return sendPage(reply, html, pageCsp('*'));
  });

  const sessionContext = (accountId: string, livemode: boolean, requestId: string): OperationContext => ({
    scope: { accountId, livemode },
    nowMs: clock.now(),
    requestId,
  });

  app.get('/checkout/:id', { schema: { hide: true, params: SessionParams } }, async (req, reply) => {
    const { id } = req.params as { id: string };
    const record = await store.findCheckoutSessionByIdInAnyAccount(id);
    if (!record) throw resourceMissing('checkout session', id, 'id');
    const ctx = sessionContext(record.accountId, record.livemode, req.id);
    const session = await retrieveCheckoutSession(store, ctx, id, servicesFor(req, payments).publicBaseUrl);
    const account = await store.findAccountById(record.accountId);
    const merchant = escapeHtml(account?.name ?? '');
    const amount = escapeHtml(formatAmount(session.amount, session.currency));
    const summary = `<section class="summary" aria-labelledby="summary-title"><div>
  <p class="merchant">${merchant}</p>
  <h1 id="summary-title">Pay ${merchant}</h1>
  <p class="amount" data-testid="amount">${amount}</p>
  ${session.description ? `<p class="description">${escapeHtml(session.description)}</p>` : ''}
  ${session.livemode ? '' : '<p class="test-mode">Test mode</p>'}
</div></section>`;
    let pay: string;
    if (session.status === 'open') {
      pay = `<section class="pay" aria-labelledby="pay-title"><div>
  <h2 id="pay-title">Pay with card</h2>
  <form id="pay-form" novalidate>
    ${cardFieldsHtml()}
    <button id="pay" type="submit">Pay ${amount}</button>
    <p id="message" role="status" aria-live="polite"></p>
  </form>
  <a class="cancel" href="${escapeHtml(session.cancel_url)}">Cancel and return to ${merchant || 'the shop'}</a>
  <p class="secure-note">Your card details go straight to the payment service; ${merchant || 'the shop'} never sees your card number.</p>
</div></section>`;
    } else {
      const done = session.status === 'complete';
      pay = `<section class="pay state" aria-labelledby="pay-title"><div>
  <h2 id="pay-title">${done ? 'This payment is complete' : 'This checkout has expired'}</h2>
  <a class="cancel" href="${escapeHtml(done ? session.success_url : session.cancel_url)}">Return to ${merchant || 'the shop'}</a>
</div></section>`;
    }
    const data = `data-session="${escapeHtml(session.id)}" data-client-secret="${escapeHtml(session.client_secret)}" data-success-url="${escapeHtml(session.success_url)}"`;
    const html = shell(`Pay ${account?.name ?? ''}`, 'checkout.css', 'checkout-page.js', `<main ${data}>\n${summary}\n${pay}\n</main>`);
    return sendPage(reply, html, pageCsp("'none'", true));
  });

  // The hosted page pays through here: its client secret (rendered into the page) is the credential,
  // as on the authentication page; the service holds no publishable key in plaintext to give it.
  app.post('/checkout/:id/pay', { schema: { hide: true, params: SessionParams, body: PayBody } }, async (req, reply) => {
    const { id } = req.params as { id: string };
    const body = req.body as PayBody;
    const record = await store.findCheckoutSessionByClientSecret(body.client_secret);
    if (!record || record.id !== id || !secretsEqual(record.clientSecret, body.client_secret))
      throw resourceMissing('checkout session', id, 'id');
    const ctx = sessionContext(record.accountId, record.livemode, req.id);
    const services = servicesFor(req, payments);
    const token = await store.transaction((tx) => createToken(tx, ctx, services.keyring, { card: body.card }));
    const result = await confirmCheckoutSession(
      store,
      ctx,
      id,
      { client_secret: body.client_secret, payment_method: token.id },
      services,
      async () => {},
    );
    if (result instanceof CommittedFailure) {
      return reply
        .code(result.error.status)
        .type(JSON_TYPE)
        .send(JSON.stringify(result.error.toBody(req.id)));
    }
    return reply.type(JSON_TYPE).send(JSON.stringify(result));
  });
}
