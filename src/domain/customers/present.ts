import type { CustomerRecord, Metadata } from '../../store/records.js';

export interface CustomerObject {
  id: string;
  object: 'customer';
  email: string | null;
  name: string | null;
  description: string | null;
  metadata: Metadata;
  created: number;
  livemode: boolean;
}

export function presentCustomer(c: CustomerRecord): CustomerObject {
  return {
    id: c.id,
    object: 'customer',
    email: c.email,
    name: c.name,
    description: c.description,
    metadata: c.metadata,
    created: c.created,
    livemode: c.livemode,
  };
}
