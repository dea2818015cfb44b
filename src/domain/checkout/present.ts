import type { CheckoutSessionRecord, PaymentRecord } from '../../store/records.js';

export interface CheckoutSessionObject {
  id: string;
  object: 'checkout.session';
  url: string;
  client_secret: string;
  status: CheckoutSessionRecord['status'];
  payment: string;
  /** The payment's status: what the hosted page and the browser library act on. */
  payment_status: string;
  amount: number;
  currency: string;
  customer: string;
  description: string | null;
  capture_method: 'automatic' | 'manual';
  success_url: string;
  cancel_url: string;
  next_action: Record<string, unknown> | null;
  last_payment_error: Record<string, unknown> | null;
  expires_at: number;
  completed_at: number | null;
  created: number;
  livemode: boolean;
  metadata: Record<string, string>;
}

export const checkoutUrl = (baseUrl: string, id: string) => `${baseUrl}/checkout/${id}`;

export function presentCheckoutSession(s: CheckoutSessionRecord, p: PaymentRecord, baseUrl: string): CheckoutSessionObject {
  return {
    id: s.id,
    object: 'checkout.session',
    url: checkoutUrl(baseUrl, s.id),
    client_secret: s.clientSecret,
    status: s.status,
    payment: p.id,
    payment_status: p.status,
    amount: p.amount,
    currency: p.currency,
    customer: p.customerId,
    description: p.description,
    capture_method: p.captureMethod,
    success_url: s.successUrl,
    cancel_url: s.cancelUrl,
    next_action: p.nextAction,
    last_payment_error: p.lastPaymentError,
    expires_at: s.expiresAt,
    completed_at: s.completedAt,
    created: s.created,
    livemode: s.livemode,
    metadata: s.metadata,
  };
}
