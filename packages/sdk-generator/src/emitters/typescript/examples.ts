import type { Operation, Parameter, Property, TypeRef } from '../../model.js';
import { camelCase, words } from '../../naming.js';
import { names, singular } from './names.js';
import { quote } from './type-expr.js';

/**
 * A call of the operation with plausible arguments, as it appears in JSDoc and the README.
 * `used` collects variable names so that several calls in one snippet do not collide.
 */
export function exampleCall(op: Operation, used: Set<string> = new Set()): string {
  const call = `${names.accessor(op)}.${names.method(op)}(${exampleArguments(op).join(', ')})`;
  if (op.pagination) {
    const item = singular(op.resourcePath.at(-1) ?? 'item');
    return `for await (const ${item} of ${call}) {\n  console.log(${item}.id);\n}`;
  }
  const variable = exampleVariable(op, used);
  used.add(variable);
  return `const ${variable} = await ${call};`;
}

function exampleVariable(op: Operation, used: Set<string>): string {
  const resource = op.resourcePath.at(-1) ?? 'result';
  const verb = words(op.name).at(-1) ?? op.name;
  const pastTense = verb.endsWith('e') ? `${verb}d` : `${verb}ed`;
  const preferred =
    op.name === 'list' ? camelCase(resource) : ['create', 'retrieve'].includes(op.name) ? singular(resource) : camelCase(pastTense);
  const candidates = [preferred, camelCase(pastTense)];
  let name = candidates.find((c) => !used.has(c)) ?? preferred;
  for (let n = 2; used.has(name); n++) name = `${preferred}${n}`;
  return name;
}

export function exampleArguments(op: Operation): string[] {
  const args = op.pathParams.map((p) => exampleValue(p.type, p.name, p.description));
  const params = exampleParams(op);
  if (params !== undefined) args.push(params);
  return args;
}

function exampleParams(op: Operation): string | undefined {
  if (op.pagination) return '{ limit: 10 }';
  const properties: Property[] =
    op.body?.type.kind === 'object' ? op.body.type.properties : op.queryParams.map((p: Parameter) => ({ ...p, required: p.required }));
  if (properties.length === 0) return undefined;
  const chosen = properties.filter((p) => p.required);
  if (chosen.length === 0) chosen.push(properties.find((p) => p.name !== 'metadata') ?? (properties[0] as Property));
  return `{ ${chosen.map((p) => `${p.name}: ${exampleValue(p.type, p.name, p.description)}`).join(', ')} }`;
}

/** A literal of the right type; ids follow the `An id beginning \`pay_\`` descriptions. */
export function exampleValue(type: TypeRef, name: string, description = ''): string {
  switch (type.kind) {
    case 'string': {
      if (type.enum?.length) return quote(type.enum[0] as string);
      const prefix = /beginning `(\w+_)`/.exec(description)?.[1];
      if (prefix) return quote(`${prefix}123`);
      if (name === 'currency') return quote('USD');
      if (name === 'email') return quote('jenny@example.com');
      if (name.endsWith('url')) return quote('https://example.com/return');
      return quote(name === 'name' ? 'Jenny Rosen' : `Example ${name.replace(/_/g, ' ')}`);
    }
    case 'integer':
    case 'number':
      return name.includes('amount') ? '2000' : name.startsWith('exp_year') ? '2030' : '1';
    case 'boolean':
      return 'true';
    case 'literal':
      return typeof type.value === 'string' ? quote(type.value) : String(type.value);
    case 'array':
      return `[${exampleValue(type.items, name)}]`;
    case 'union': {
      const first = type.variants.find((v) => v.kind !== 'null') ?? type.variants[0];
      return first ? exampleValue(first, name, description) : 'null';
    }
    case 'object':
      if (type.properties.length === 0) return name === 'metadata' ? "{ order_id: '6735' }" : '{}';
      return `{ ${type.properties
        .filter((p) => p.required)
        .map((p) => `${p.name}: ${exampleValue(p.type, p.name, p.description)}`)
        .join(', ')} }`;
    default:
      return 'null';
  }
}
