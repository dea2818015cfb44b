/** An API object as sent on the wire. */
export type WireObject = Record<string, unknown>;

/**
 * One backwards-incompatible change, kept as code: how to turn a response of the newer shape
 * into the older one, and a request of the older shape into the newer one.
 */
export interface VersionChange {
  description: string;
  /** Per object type (`payment`, `customer`, ...): rewrite a newer-shaped object to the older shape. */
  downgradeObject?: Readonly<Record<string, (object: WireObject) => WireObject>>;
  /** Per route (`GET /v1/payments`): rewrite older-shaped query or body parameters to the newer shape. */
  upgradeParams?: Readonly<Record<string, (params: WireObject) => WireObject>>;
}
