import type { ApiModel, ErrorTypeInfo, NamedSchema, Operation, Parameter, Property, Resource, TypeRef } from './model.js';
import { type JsonSchema, type OpenApiDocument, type OperationObject, type ParameterObject, refName } from './openapi.js';

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * Builds the model from the document. Operations are the `/v1` routes with an operationId of
 * the form `<resource>[.<sub-resource>].<method>`; everything else (health checks) is left out.
 */
export function buildModel(doc: OpenApiDocument): ApiModel {
  const schemas: NamedSchema[] = Object.entries(doc.components?.schemas ?? {}).map(([name, schema]) => ({
    name,
    type: toTypeRef(schema),
    ...(schema.description ? { description: schema.description } : {}),
  }));
  const schemaByName = new Map(Object.entries(doc.components?.schemas ?? {}));

  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/v1/')) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op?.operationId?.includes('.')) continue;
      operations.push(buildOperation(doc, path, method, op, schemaByName));
    }
  }

  const errorCodes = (doc['x-error-codes'] ?? []).map((c) => ({ ...c }));
  const errorTypes: ErrorTypeInfo[] = (doc['x-error-types'] ?? []).map((type) => {
    const codes = errorCodes.filter((c) => c.type === type);
    return { type, statuses: [...new Set(codes.map((c) => c.status))].sort((a, b) => a - b), codes };
  });
  const statusErrorTypes: Record<number, string> = {};
  for (const status of [...new Set(errorCodes.map((c) => c.status))].sort((a, b) => a - b)) {
    const types = new Set(errorCodes.filter((c) => c.status === status).map((c) => c.type));
    if (types.size === 1) statusErrorTypes[status] = [...types][0] as string;
  }

  const versionParam = doc.components?.parameters?.ServiceVersion;
  const versions = (versionParam?.schema?.enum ?? []).map(String);

  return {
    title: doc.info.title,
    ...(doc.info.description ? { description: doc.info.description } : {}),
    latestVersion: doc.info.version,
    versions: versions.length > 0 ? versions : [doc.info.version],
    resources: buildResourceTree(operations),
    operations,
    schemas,
    errorTypes,
    errorCodes,
    statusErrorTypes,
  };
}

function buildOperation(
  doc: OpenApiDocument,
  path: string,
  httpMethod: Operation['httpMethod'],
  op: OperationObject,
  schemas: Map<string, JsonSchema>,
): Operation {
  const id = op.operationId as string;
  const segments = id.split('.');
  const parameters = (op.parameters ?? []).map((p) => resolveParameter(doc, p));
  const toParameter = (p: ParameterObject): Parameter => ({
    name: p.name,
    type: p.schema ? toTypeRef(p.schema) : { kind: 'string' },
    required: p.required === true,
    ...(p.description ? { description: p.description } : {}),
    ...(p.style === 'deepObject' ? { style: 'deepObject' as const } : {}),
  });
  const pathOrder = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const pathParams = parameters
    .filter((p) => p.in === 'path')
    .sort((a, b) => pathOrder.indexOf(a.name) - pathOrder.indexOf(b.name))
    .map(toParameter);
  const queryParams = parameters.filter((p) => p.in === 'query').map(toParameter);
  // Service-Version is a client option, not a per-method parameter; Idempotency-Key is generated.
  const headers = parameters.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase());

  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const responseSchema = op.responses?.['200']?.content?.['application/json']?.schema;
  const response: TypeRef = responseSchema ? toTypeRef(responseSchema) : { kind: 'unknown' };

  const operation: Operation = {
    id,
    name: segments[segments.length - 1] as string,
    resourcePath: segments.slice(0, -1),
    httpMethod,
    path,
    ...(op.summary ? { summary: op.summary } : {}),
    ...(op.description ? { description: op.description } : {}),
    deprecated: op.deprecated === true,
    pathParams,
    queryParams,
    ...(bodySchema ? { body: { type: toTypeRef(bodySchema), required: op.requestBody?.required === true } } : {}),
    idempotencyKey: headers.includes(IDEMPOTENCY_HEADER),
    response,
    permission: op['x-permission'] ?? { auth: 'key' },
    tags: op.tags ?? [],
  };
  const item = paginatedItem(responseSchema, schemas, queryParams);
  if (item) operation.pagination = { item };
  return operation;
}

function resolveParameter(doc: OpenApiDocument, p: ParameterObject): ParameterObject {
  if (!p.$ref) return p;
  const resolved = doc.components?.parameters?.[refName(p.$ref)];
  if (!resolved) throw new Error(`Unresolved parameter reference ${p.$ref}`);
  return resolved;
}

/** A list response whose query takes `starting_after`: `{ object: 'list', data: [...], has_more }`. */
function paginatedItem(schema: JsonSchema | undefined, schemas: Map<string, JsonSchema>, query: Parameter[]): TypeRef | undefined {
  if (!schema || !query.some((p) => p.name === 'starting_after')) return undefined;
  const target = schema.$ref ? schemas.get(refName(schema.$ref)) : schema;
  const data = target?.properties?.data;
  if (!target?.properties?.has_more || !data?.items) return undefined;
  return toTypeRef(data.items);
}

function buildResourceTree(operations: Operation[]): Resource[] {
  const roots: Resource[] = [];
  for (const op of operations) {
    let level = roots;
    let node: Resource | undefined;
    op.resourcePath.forEach((name, i) => {
      node = level.find((r) => r.name === name);
      if (!node) {
        node = { name, path: op.resourcePath.slice(0, i + 1), operations: [], children: [] };
        level.push(node);
      }
      level = node.children;
    });
    node?.operations.push(op);
  }
  return roots;
}

/** JSON Schema (the subset route schemas produce) → model type. */
export function toTypeRef(schema: JsonSchema): TypeRef {
  if (schema.$ref) return { kind: 'ref', name: refName(schema.$ref) };
  if (schema.const !== undefined) return literal(schema.const);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return union(variants.map(toTypeRef));
  if (schema.allOf) return schema.allOf.length === 1 ? toTypeRef(schema.allOf[0] as JsonSchema) : mergeObjects(schema.allOf.map(toTypeRef));
  if (Array.isArray(schema.type)) return union(schema.type.map((type) => toTypeRef({ ...schema, type })));
  switch (schema.type) {
    case 'string':
      return {
        kind: 'string',
        ...(schema.enum ? { enum: schema.enum.map(String) } : {}),
        ...(schema.format ? { format: schema.format } : {}),
      };
    case 'integer':
      return { kind: 'integer' };
    case 'number':
      return { kind: 'number' };
    case 'boolean':
      return schema.enum?.length === 1 ? literal(schema.enum[0]) : { kind: 'boolean' };
    case 'null':
      return { kind: 'null' };
    case 'array':
      return { kind: 'array', items: schema.items ? toTypeRef(schema.items) : { kind: 'unknown' } };
    case 'object':
      return objectType(schema);
    default:
      return schema.properties ? objectType(schema) : { kind: 'unknown' };
  }
}

function objectType(schema: JsonSchema): TypeRef {
  const required = new Set(schema.required ?? []);
  const properties: Property[] = Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    type: toTypeRef(s),
    required: required.has(name),
    ...(s.description ? { description: s.description } : {}),
    ...(s.default !== undefined ? { default: s.default } : {}),
  }));
  const extra = schema.additionalProperties;
  const additionalProperties: TypeRef | 'any' | undefined =
    typeof extra === 'object' ? toTypeRef(extra) : extra === true || (extra === undefined && properties.length === 0) ? 'any' : undefined;
  return { kind: 'object', properties, ...(additionalProperties ? { additionalProperties } : {}) };
}

function literal(value: unknown): TypeRef {
  return { kind: 'literal', value: typeof value === 'number' || typeof value === 'boolean' ? value : String(value) };
}

function union(variants: TypeRef[]): TypeRef {
  return variants.length === 1 ? (variants[0] as TypeRef) : { kind: 'union', variants };
}

function mergeObjects(parts: TypeRef[]): TypeRef {
  const properties = parts.flatMap((p) => (p.kind === 'object' ? p.properties : []));
  return { kind: 'object', properties };
}
