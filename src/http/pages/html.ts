import type { FastifyReply } from 'fastify';
import { minorUnitDigits } from '../../lib/currencies.js';

/** Helpers for the few HTML pages the service serves (hosted checkout, card element, authentication). */

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function formatAmount(amount: number, currency: string): string {
  const digits = minorUnitDigits(currency) ?? 2;
  try {
    return new Intl.NumberFormat('en', {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(amount / 10 ** digits);
  } catch {
    return `${(amount / 10 ** digits).toFixed(digits)} ${currency}`;
  }
}

/** No inline script or style, nothing from another origin. `frameAncestors` decides who may embed the page. */
export function pageCsp(frameAncestors: "'none'" | '*', frames = false): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data:",
    ...(frames ? ["frame-src 'self'"] : []),
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

export function sendPage(reply: FastifyReply, html: string, csp: string): FastifyReply {
  reply.header('Content-Security-Policy', csp);
  reply.header('Referrer-Policy', 'no-referrer');
  reply.header('Cache-Control', 'no-store');
  reply.header('X-Content-Type-Options', 'nosniff');
  return reply.type('text/html; charset=utf-8').send(html);
}

/** The card fields, with labels and error elements tied to them; packages/browser/src/card-form.ts brings them to life. */
export function cardFieldsHtml(): string {
  return `<div class="card-fields">
  <div class="field field-number">
    <label for="card-number">Card number</label>
    <div class="input-wrap">
      <input id="card-number" data-field="number" name="cardnumber" type="text" inputmode="numeric" autocomplete="cc-number"
        placeholder="1234 1234 1234 1234" maxlength="23" spellcheck="false" required aria-invalid="false" aria-describedby="card-number-error card-brand">
      <span class="brand" id="card-brand" data-brand="unknown" aria-live="polite"></span>
    </div>
    <p class="error" id="card-number-error" data-error="number" role="alert"></p>
  </div>
  <div class="field">
    <label for="card-expiry">Expiry date (MM / YY)</label>
    <input id="card-expiry" data-field="expiry" name="exp-date" type="text" inputmode="numeric" autocomplete="cc-exp"
      placeholder="MM / YY" maxlength="7" required aria-invalid="false" aria-describedby="card-expiry-error">
    <p class="error" id="card-expiry-error" data-error="expiry" role="alert"></p>
  </div>
  <div class="field">
    <label for="card-cvc">Security code</label>
    <input id="card-cvc" data-field="cvc" name="cvc" type="text" inputmode="numeric" autocomplete="cc-csc"
      placeholder="CVC" maxlength="4" required aria-invalid="false" aria-describedby="card-cvc-error">
    <p class="error" id="card-cvc-error" data-error="cvc" role="alert"></p>
  </div>
</div>`;
}
