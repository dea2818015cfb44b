import type { ApiModel, NamedSchema, Operation, Resource, TypeRef } from '../../model.js';
import { camelCase, pascalCase } from '../../naming.js';

/** Schema names that PHP reserves or that would read as PHP's own classes. */
const RESERVED = new Set(['Error', 'Exception', 'Object', 'List', 'Array', 'String', 'Int', 'Float', 'Bool', 'Iterable', 'Mixed', 'Null']);

/** PHP names for model things, in one place so every file agrees. */
export const names = {
  namespace: 'Payments',
  client: 'PaymentsClient',
  /** A component schema's class: `Payment`; `Error` → `ErrorBody`. */
  model: (schema: string) => (RESERVED.has(pascalCase(schema)) ? `${pascalCase(schema)}Body` : pascalCase(schema)),
  service: (path: string[]) => `${pascalCase(path)}Service`,
  property: (name: string) => camelCase(name),
  method: (op: Operation) => camelCase(op.name),
  variable: (name: string) => `$${camelCase(name)}`,
  errorClass: (type: string) => pascalCase(type, { acronyms: true }),
  /** `$client->checkout->sessions` */
  accessor: (op: Operation) => `$client->${op.resourcePath.map(camelCase).join('->')}`,
};

/** Schemas that become a class: objects. Others (unions, maps) are spelled out where used. */
export function modelSchemas(model: ApiModel): NamedSchema[] {
  return model.schemas.filter((s) => s.type.kind === 'object');
}

/** The model class a type reads into (a ref to an object schema, possibly nullable), if any. */
export function modelClass(type: TypeRef, model: ApiModel): string | undefined {
  if (type.kind === 'ref') {
    const schema = model.schemas.find((s) => s.name === type.name);
    return schema?.type.kind === 'object' ? names.model(type.name) : undefined;
  }
  if (type.kind === 'union') {
    const others = type.variants.filter((v) => v.kind !== 'null');
    return others.length === 1 ? modelClass(others[0] as TypeRef, model) : undefined;
  }
  return undefined;
}

export function flattenResources(resources: Resource[]): Resource[] {
  return resources.flatMap((r) => [r, ...flattenResources(r.children)]);
}

/** The single `object` value a schema declares (`payment`), used to pick a class for webhook events. */
export function objectName(schema: NamedSchema): string | undefined {
  if (schema.type.kind !== 'object') return undefined;
  const prop = schema.type.properties.find((p) => p.name === 'object');
  if (prop?.type.kind === 'literal' && typeof prop.type.value === 'string') return prop.type.value;
  if (prop?.type.kind === 'string' && prop.type.enum?.length === 1) return prop.type.enum[0];
  return undefined;
}
