import type { ApiModel, Operation, Property, Resource, TypeRef } from '../../model.js';
import { pascalCase } from '../../naming.js';

/**
 * Helpers for emitters of languages whose object types need names (Python TypedDicts, Go
 * structs, Java records): anonymous nested objects are hoisted into named ones.
 */

/** An object type with a name: a component schema, a hoisted nested object, or an operation's params. */
export interface NamedObject {
  name: string;
  properties: Property[];
  description?: string;
}

/** Every resource of the tree, parents before children. */
export function flattenResources(resources: Resource[]): Resource[] {
  return resources.flatMap((r) => [r, ...flattenResources(r.children)]);
}

/** Whether a type is an object with declared properties (a record, not a map). */
export function isRecord(type: TypeRef): type is Extract<TypeRef, { kind: 'object' }> {
  return type.kind === 'object' && type.properties.length > 0;
}

/**
 * Replaces every nested object with properties by a `ref` to a named object registered in
 * `into` (named `hint` + the property path in PascalCase), and returns the rewritten type.
 */
export function hoist(type: TypeRef, hint: string, into: Map<string, NamedObject>): TypeRef {
  switch (type.kind) {
    case 'object': {
      if (type.properties.length === 0) {
        const extra = type.additionalProperties;
        return extra && extra !== 'any' ? { ...type, additionalProperties: hoist(extra, `${hint}Value`, into) } : type;
      }
      let name = hint;
      for (let n = 2; into.has(name); n++) name = `${hint}${n}`;
      const named: NamedObject = { name, properties: [] };
      into.set(name, named);
      named.properties = type.properties.map((p) => ({ ...p, type: hoist(p.type, `${name}${pascalCase(p.name)}`, into) }));
      return { kind: 'ref', name };
    }
    case 'array':
      return { ...type, items: hoist(type.items, `${hint}Item`, into) };
    case 'union':
      return { ...type, variants: type.variants.map((v) => hoist(v, hint, into)) };
    default:
      return type;
  }
}

/** Component schemas that are records, with nested objects hoisted; other schemas are left out. */
export function responseObjects(model: ApiModel): NamedObject[] {
  const into = new Map<string, NamedObject>();
  for (const schema of model.schemas) {
    if (!isRecord(schema.type)) continue;
    into.set(schema.name, { name: schema.name, properties: [] });
  }
  for (const schema of model.schemas) {
    if (!isRecord(schema.type)) continue;
    const named = into.get(schema.name) as NamedObject;
    if (schema.description) named.description = schema.description;
    named.properties = schema.type.properties.map((p) => ({
      ...p,
      type: hoist(p.type, `${schema.name}${pascalCase(p.name)}`, into),
    }));
  }
  return [...into.values()];
}

/** The properties an operation's caller passes: the body's and the query's, in that order. */
export function paramProperties(op: Operation): Property[] {
  const body = op.body?.type;
  const query: Property[] = op.queryParams.map((p) => ({
    name: p.name,
    type: p.type,
    required: p.required,
    ...(p.description ? { description: p.description } : {}),
  }));
  return [...(body && isRecord(body) ? body.properties : []), ...query];
}

/** `X | null` → X (with nullable true); other types unchanged. */
export function unwrapNullable(type: TypeRef): { type: TypeRef; nullable: boolean } {
  if (type.kind === 'null') return { type: { kind: 'unknown' }, nullable: true };
  if (type.kind !== 'union') return { type, nullable: false };
  const rest = type.variants.filter((v) => v.kind !== 'null');
  const nullable = rest.length < type.variants.length;
  if (rest.length === 1) return { type: rest[0] as TypeRef, nullable };
  return { type: { kind: 'union', variants: rest }, nullable };
}

/**
 * For languages without union types: the variant to expose for a union. A record variant wins
 * (`created` as an int or `{ gte, lte }` → the object, which can say both), then a single
 * scalar kind; otherwise undefined (the language's "any").
 */
export function unionChoice(type: Extract<TypeRef, { kind: 'union' }>, isNamedRecord: (name: string) => boolean): TypeRef | undefined {
  const ref = type.variants.find((v) => v.kind === 'ref' && isNamedRecord(v.name));
  if (ref) return ref;
  const kinds = new Set(type.variants.map((v) => (v.kind === 'literal' ? typeof v.value : v.kind)));
  return kinds.size === 1 ? type.variants[0] : undefined;
}

/** The operation's path split into literal parts and parameter names. */
export function pathParts(path: string): Array<{ literal: string } | { param: string }> {
  return path
    .split(/(\{\w+\})/)
    .filter(Boolean)
    .map((part) => (part.startsWith('{') ? { param: part.slice(1, -1) } : { literal: part }));
}
