import type { CardSummary, Metadata, PaymentRecord } from '../../store/records.js';

export interface PaymentObject {
  id: string;
  object: 'payment';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  amount_refunded: number;
  currency: string;
  customer: string;
  description: string | null;
  capture_method: 'automatic' | 'manual';
  status: string;
  payment_method: CardSummary | null;
  last_payment_error: Record<string, unknown> | null;
  next_action: Record<string, unknown> | null;
  cancellation_reason: string | null;
  canceled_at: number | null;
  created: number;
  livemode: boolean;
  metadata: Metadata;
  client_secret: string | null;
}

export function presentPayment(p: PaymentRecord): PaymentObject {
  return {
    id: p.id,
    object: 'payment',
    amount: p.amount,
    amount_capturable: p.amountCapturable,
    amount_received: p.amountReceived,
    amount_refunded: p.amountRefunded,
    currency: p.currency,
    customer: p.customerId,
    description: p.description,
    capture_method: p.captureMethod,
    status: p.status,
    payment_method: p.paymentMethod,
    last_payment_error: p.lastPaymentError,
    next_action: p.nextAction,
    cancellation_reason: p.cancellationReason,
    canceled_at: p.canceledAt,
    created: p.created,
    livemode: p.livemode,
    metadata: p.metadata,
    client_secret: p.clientSecret ?? null,
  };
}
