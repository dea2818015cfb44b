import type { VersionChange, WireObject } from '../version-change.js';

export const amountBreakdown: VersionChange = {
  description:
    'Payments gained `amount_capturable` and `amount_received`, so a payment shows how much is authorised and how much has moved without reading its status.',
  downgradeObject: {
    payment: (payment: WireObject) => {
      const { amount_capturable: _capturable, amount_received: _received, ...older } = payment;
      return older;
    },
  },
};
