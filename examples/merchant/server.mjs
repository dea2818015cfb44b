// A sample merchant: sells one mug, with the card element and with the hosted checkout.
// Its own origin (default http://localhost:3000); the payment service runs elsewhere.
//
//   PAYMENTS_API=http://127.0.0.1:4242 PAYMENTS_SECRET_KEY=service_test_... \
//   PAYMENTS_PUBLISHABLE_KEY=pk_test_... node examples/merchant/server.mjs
//
// The secret key stays on this server (creating payments and sessions); the page gets only the
// publishable key. No dependencies: node:http and fetch.
/* global fetch */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const ITEM = { name: 'Ceramic mug', description: 'One ceramic mug, hand-glazed', amount: 1500, currency: 'USD' };
const PUBLIC = new URL('./public/', import.meta.url);
const FILES = {
  '/': ['index.html', 'text/html'],
  '/success': ['success.html', 'text/html'],
  '/shop.js': ['shop.js', 'text/javascript'],
  '/shop.css': ['shop.css', 'text/css'],
};

export function createMerchant({ api, secretKey, publishableKey }) {
  let customer;
  const call = async (method, path, body) => {
    const res = await fetch(`${api}${path}`, {
      method,
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(json.error?.message ?? `HTTP ${res.status}`);
    return json;
  };
  const customerId = async () => (customer ??= (await call('POST', '/v1/customers', { email: 'shopper@example.com' })).id);

  return createServer(async (req, res) => {
    const send = (status, type, body) => {
      res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
      res.end(body);
    };
    try {
      const url = new URL(req.url, 'http://merchant');
      const origin = `http://${req.headers.host}`;
      const file = FILES[url.pathname];
      if (req.method === 'GET' && file) return send(200, file[1], readFileSync(new URL(file[0], PUBLIC)));
      if (req.method === 'GET' && url.pathname === '/config.json') {
        return send(200, 'application/json', JSON.stringify({ publishableKey, api, item: ITEM }));
      }
      if (req.method === 'POST' && url.pathname === '/create-payment') {
        const payment = await call('POST', '/v1/payments', { ...ITEM, name: undefined, customer: await customerId() });
        return send(200, 'application/json', JSON.stringify({ client_secret: payment.client_secret }));
      }
      if (req.method === 'POST' && url.pathname === '/create-checkout-session') {
        const session = await call('POST', '/v1/checkout/sessions', {
          amount: ITEM.amount,
          currency: ITEM.currency,
          description: ITEM.description,
          customer: await customerId(),
          success_url: `${origin}/success`,
          cancel_url: `${origin}/`,
        });
        return send(200, 'application/json', JSON.stringify({ url: session.url, id: session.id }));
      }
      send(404, 'text/plain', 'Not found');
    } catch (err) {
      send(500, 'application/json', JSON.stringify({ error: err.message }));
    }
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const api = process.env.PAYMENTS_API ?? 'http://127.0.0.1:4242';
  const { PAYMENTS_SECRET_KEY: secretKey, PAYMENTS_PUBLISHABLE_KEY: publishableKey } = process.env;
  if (!secretKey || !publishableKey) {
    console.error('Set PAYMENTS_SECRET_KEY and PAYMENTS_PUBLISHABLE_KEY (npm start prints the sandbox keys).');
    process.exit(1);
  }
  const port = Number(process.env.PORT ?? 3000);
  createMerchant({ api, secretKey, publishableKey }).listen(port, 'localhost', () => console.log(`Shop on http://localhost:${port}/`));
}
