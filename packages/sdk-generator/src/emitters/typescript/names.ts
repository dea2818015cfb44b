import type { Operation, Resource } from '../../model.js';
import { camelCase, kebabCase, pascalCase, words } from '../../naming.js';

/** TypeScript names for model things, in one place so every file agrees. */
/** Schema names that would shadow a global type in generated code. */
const RESERVED_TYPES = new Set([
  'Error',
  'Object',
  'Function',
  'Array',
  'String',
  'Number',
  'Boolean',
  'Date',
  'Promise',
  'Record',
  'Symbol',
]);

export const names = {
  /** A component schema's type name: `Payment`; `Error` → `ErrorBody`. */
  type: (schema: string) => (RESERVED_TYPES.has(schema) ? `${schema}Body` : pascalCase(schema)),
  client: 'PaymentsClient',
  resourceClass: (path: string[]) => `${pascalCase(path)}Resource`,
  resourceFile: (path: string[]) => `resources/${kebabCase(path)}`,
  resourceProperty: (name: string) => camelCase(name),
  method: (op: Operation) => camelCase(op.name),
  params: (op: Operation) => `${pascalCase([...op.resourcePath, op.name])}Params`,
  pathArgument: (name: string) => camelCase(name),
  errorClass: (type: string) => pascalCase(type, { acronyms: true }),
  /** `client.checkout.sessions` */
  accessor: (resource: Resource | Operation) =>
    `client.${('resourcePath' in resource ? resource.resourcePath : resource.path).map(camelCase).join('.')}`,
};

/** `payments` → `payment`: good enough for variable names in examples. */
export function singular(name: string): string {
  const last = words(name).at(-1) ?? name;
  const base = last.endsWith('ies') ? `${last.slice(0, -3)}y` : last.endsWith('s') && !last.endsWith('ss') ? last.slice(0, -1) : last;
  return camelCase([...words(name).slice(0, -1), base]);
}
