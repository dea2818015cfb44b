import { ApiError } from '../../errors/api-error.js';

/**
 * The payment state machine, as data. Every status change goes through `transition`; the
 * diagram in docs/payment-states.md is generated from TRANSITIONS and checked by a test.
 */
export const PAYMENT_STATUSES = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
  'succeeded',
  'canceled',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_EVENTS = [
  'attach_payment_method',
  'confirm',
  'require_action',
  'action_completed',
  'action_failed',
  'authorized',
  'charge_succeeded',
  'charge_failed',
  'capture',
  'cancel',
  'expire',
] as const;
export type PaymentEvent = (typeof PAYMENT_EVENTS)[number];

export const TRANSITIONS: Readonly<Record<PaymentStatus, Readonly<Partial<Record<PaymentEvent, PaymentStatus>>>>> = {
  requires_payment_method: {
    attach_payment_method: 'requires_confirmation',
    cancel: 'canceled',
  },
  requires_confirmation: {
    attach_payment_method: 'requires_confirmation',
    confirm: 'processing',
    cancel: 'canceled',
  },
  requires_action: {
    action_completed: 'processing',
    action_failed: 'requires_payment_method',
    cancel: 'canceled',
  },
  processing: {
    require_action: 'requires_action',
    authorized: 'requires_capture',
    charge_succeeded: 'succeeded',
    charge_failed: 'requires_payment_method',
    cancel: 'canceled',
  },
  requires_capture: {
    capture: 'succeeded',
    cancel: 'canceled',
    expire: 'canceled',
  },
  succeeded: {},
  canceled: {},
};

export const TERMINAL_STATUSES: readonly PaymentStatus[] = PAYMENT_STATUSES.filter((s) => Object.keys(TRANSITIONS[s]).length === 0);

export function nextStatus(status: PaymentStatus, event: PaymentEvent): PaymentStatus | undefined {
  return TRANSITIONS[status][event];
}

/** The status after `event`, or 400 `payment_unexpected_state` when the status does not allow it. */
export function transition(status: PaymentStatus, event: PaymentEvent, operation: string = event): PaymentStatus {
  const next = nextStatus(status, event);
  if (!next) {
    throw new ApiError(
      'payment_unexpected_state',
      `You cannot ${operation.replace(/_/g, ' ')} this payment because it has a status of ${status}.`,
    );
  }
  return next;
}
