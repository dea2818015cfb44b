/**
 * The language-neutral model every emitter reads. It keeps wire names (emitters case them)
 * and resolves everything an emitter should not have to know about OpenAPI: parameter
 * references, which header is which, which lists paginate, which error class a status maps to.
 */

export type TypeRef =
  | { kind: 'string'; enum?: string[]; format?: string }
  | { kind: 'integer' }
  | { kind: 'number' }
  | { kind: 'boolean' }
  | { kind: 'null' }
  | { kind: 'literal'; value: string | number | boolean }
  | { kind: 'array'; items: TypeRef }
  | { kind: 'object'; properties: Property[]; additionalProperties?: TypeRef | 'any' }
  | { kind: 'union'; variants: TypeRef[] }
  | { kind: 'ref'; name: string }
  | { kind: 'unknown' };

export interface Property {
  /** The wire name, e.g. `amount_capturable`. */
  name: string;
  type: TypeRef;
  required: boolean;
  description?: string;
  /** Set on request properties the server fills in when absent. */
  default?: unknown;
}

/** A component schema (`#/components/schemas/Payment`), e.g. a response object. */
export interface NamedSchema {
  name: string;
  type: TypeRef;
  description?: string;
}

export interface Parameter {
  name: string;
  type: TypeRef;
  required: boolean;
  description?: string;
  /** `deepObject` query parameters are sent as `created[gte]=...`. */
  style?: 'form' | 'deepObject';
}

export interface Permission {
  auth: 'none' | 'key';
  resource?: string;
  level?: 'read' | 'write';
  publishable?: boolean;
}

export interface Operation {
  /** `payments.create`. */
  id: string;
  /** `create`: the method name within its resource. */
  name: string;
  /** `['payments']`, or `['checkout', 'sessions']` for `checkout.sessions.create`. */
  resourcePath: string[];
  httpMethod: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** `/v1/payments/{id}`. */
  path: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  /** In the order they appear in the path. */
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** The JSON body, when the operation takes one. */
  body?: { type: TypeRef; required: boolean };
  /** True when the endpoint requires `Idempotency-Key` (SDKs generate one when none is given). */
  idempotencyKey: boolean;
  /** The 200 response; `unknown` when the document does not describe it. */
  response: TypeRef;
  /** Set when the response is a cursor-paginated list (`starting_after` / `ending_before`). */
  pagination?: { item: TypeRef };
  /** Whether the route needs an API key, and which permission (`x-permission`). */
  permission: Permission;
  tags: string[];
}

/** A node of the resource tree: `payments`, or `checkout` holding `sessions`. */
export interface Resource {
  name: string;
  /** Full path from the client, e.g. `['checkout', 'sessions']`. */
  path: string[];
  operations: Operation[];
  children: Resource[];
}

export interface ErrorCodeInfo {
  code: string;
  type: string;
  status: number;
  description: string;
}

export interface ErrorTypeInfo {
  /** `rate_limit_error`. */
  type: string;
  /** Statuses the registry answers this type with, ascending. */
  statuses: number[];
  codes: ErrorCodeInfo[];
}

export interface ApiModel {
  title: string;
  description?: string;
  /** The newest API release (`info.version`). */
  latestVersion: string;
  /** Every release `Service-Version` accepts, oldest first. */
  versions: string[];
  resources: Resource[];
  /** Every operation, in document order. */
  operations: Operation[];
  schemas: NamedSchema[];
  errorTypes: ErrorTypeInfo[];
  errorCodes: ErrorCodeInfo[];
  /** For statuses that map to exactly one error type; others fall back by range. */
  statusErrorTypes: Record<number, string>;
}
