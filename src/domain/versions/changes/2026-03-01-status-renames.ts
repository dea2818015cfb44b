import type { VersionChange, WireObject } from '../version-change.js';

const RENAMED: Record<string, string> = {
  requires_source: 'requires_payment_method',
  requires_source_action: 'requires_action',
};
const ORIGINAL = Object.fromEntries(Object.entries(RENAMED).map(([oldName, newName]) => [newName, oldName]));

export const statusRenames: VersionChange = {
  description:
    'Payment statuses `requires_source` and `requires_source_action` were renamed to `requires_payment_method` and `requires_action`.',
  downgradeObject: {
    payment: (payment: WireObject) => {
      const status = payment.status as string;
      return status in ORIGINAL ? { ...payment, status: ORIGINAL[status] } : payment;
    },
  },
  upgradeParams: {
    'GET /v1/payments': (query: WireObject) => {
      const status = query.status;
      return typeof status === 'string' && status in RENAMED ? { ...query, status: RENAMED[status] } : query;
    },
  },
};
