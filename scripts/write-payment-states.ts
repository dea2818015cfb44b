// Writes docs/payment-states.md from the payment state machine (npm run docs:states).
// test/domain/payments/state-diagram.test.ts fails when the committed copy is stale.
import { writeFileSync } from 'node:fs';
import { paymentStatesDocument } from '../src/domain/payments/state-diagram.js';

const path = new URL('../docs/payment-states.md', import.meta.url);
writeFileSync(path, paymentStatesDocument());
console.log(`wrote ${path.pathname}`);
