/**
 * The processor-connector interface: what the payment lifecycle asks of whoever moves the money.
 * Every call carries the service's own `operationId` (the intent row written before the call), and
 * a connector must treat a repeated id as the same request, so reconciliation can ask again safely.
 */
export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  /** Present only on the first authorisation of a freshly tokenised card. */
  cvc: string | null;
}

export type DeclineCode = 'card_declined' | 'expired_card' | 'incorrect_cvc' | 'processing_error';

export interface Declined {
  status: 'declined';
  reference: string | null;
  code: DeclineCode;
  declineCode: string;
  message: string;
}

export type AuthorizeOutcome =
  { status: 'authorized'; reference: string; captured: boolean } | { status: 'requires_action'; reference: string } | Declined;

export type SimpleOutcome = { status: 'succeeded'; reference: string } | Declined;

export interface AuthorizeRequest {
  operationId: string;
  amount: number;
  currency: string;
  card: CardDetails;
  /** Capture in the same step (capture_method automatic). */
  capture: boolean;
}

export interface ProcessorConnector {
  readonly name: string;
  authorize(request: AuthorizeRequest): Promise<AuthorizeOutcome>;
  /** Finishes an authorisation that required customer authentication. */
  completeAuthentication(request: {
    operationId: string;
    reference: string;
    succeeded: boolean;
    amount: number;
    capture: boolean;
  }): Promise<AuthorizeOutcome>;
  capture(request: { operationId: string; reference: string; amount: number }): Promise<SimpleOutcome>;
  /** Voids an authorisation (releases the held amount). */
  cancel(request: { operationId: string; reference: string }): Promise<SimpleOutcome>;
  refund(request: { operationId: string; reference: string; amount: number }): Promise<SimpleOutcome>;
  /** What came of an operation sent earlier, or undefined when the processor never received it. */
  lookup(operationId: string): Promise<AuthorizeOutcome | SimpleOutcome | undefined>;
}
