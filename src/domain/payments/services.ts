import type { Processors } from '../processor/processors.js';
import type { CardKeyring } from '../tokens/keyring.js';

/** What the money-moving operations need besides the store. */
export interface PaymentServices {
  processors: Processors;
  keyring: CardKeyring;
  /** Origin the customer's browser reaches the service on (for next_action URLs). */
  publicBaseUrl: string;
}
