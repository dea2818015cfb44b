import { GENERATED_NOTICE } from '../../emitter.js';
import type { Operation, Resource, TypeRef } from '../../model.js';
import { exampleCall } from './examples.js';
import { names } from './names.js';
import { docLines, typeExpr } from './type-expr.js';

export const HEADER = `// ${GENERATED_NOTICE}`;

/** Whether a caller must pass params: a required body property or query parameter. */
export function paramsRequired(op: Operation): boolean {
  const body = op.body?.type;
  if (body?.kind === 'object' && body.properties.some((p) => p.required)) return true;
  if (body && body.kind !== 'object' && op.body?.required) return true;
  return op.queryParams.some((p) => p.required);
}

export function hasParams(op: Operation): boolean {
  return op.body !== undefined || op.queryParams.length > 0;
}

export function returnType(op: Operation): string {
  return op.pagination ? `ListPromise<${typeExpr(op.pagination.item)}>` : `Promise<${typeExpr(op.response)}>`;
}

/** One file per resource: a class with one method per operation, and getters for sub-resources. */
export function emitResource(resource: Resource): string {
  const typeNames = new Set<string>();
  for (const op of resource.operations) {
    if (hasParams(op)) typeNames.add(names.params(op));
    collectRefs(op.pagination?.item ?? op.response, typeNames);
  }
  const usesList = resource.operations.some((op) => op.pagination);
  const splitsParams = resource.operations.some((op) => op.body && op.queryParams.length > 0);
  const imports = [
    usesList ? "import { ListPromise } from '../runtime/pagination.js';" : undefined,
    splitsParams ? "import { omit, pick } from '../runtime/query.js';" : undefined,
    "import type { RequestOptions, RequestSender } from '../runtime/request-sender.js';",
    typeNames.size > 0 ? `import type { ${[...typeNames].sort().join(', ')} } from '../types.js';` : undefined,
    ...resource.children.map((c) => `import { ${names.resourceClass(c.path)} } from './${names.resourceFile(c.path).split('/')[1]}.js';`),
  ].filter(Boolean);

  const className = names.resourceClass(resource.path);
  const members = [
    ...resource.children.map((c) => `  readonly ${names.resourceProperty(c.name)}: ${names.resourceClass(c.path)};`),
    resource.children.length
      ? `\n  constructor(private readonly sender: RequestSender) {\n${resource.children
          .map((c) => `    this.${names.resourceProperty(c.name)} = new ${names.resourceClass(c.path)}(sender);`)
          .join('\n')}\n  }`
      : '  constructor(private readonly sender: RequestSender) {}',
    ...resource.operations.map((op) => emitMethod(op)),
  ];
  const paths = [...new Set(resource.operations.map((op) => op.path.replace(/\/\{\w+\}.*$/, '')))];
  return [
    HEADER,
    ...imports,
    '',
    `/** ${resource.path.join('.')}${paths.length ? `: \`${paths.join('`, `')}\`` : ''}. */`,
    `export class ${className} {`,
    members.join('\n\n'),
    '}',
    '',
  ].join('\n');
}

function emitMethod(op: Operation): string {
  const args = op.pathParams.map((p) => `${names.pathArgument(p.name)}: string`);
  if (hasParams(op)) args.push(paramsRequired(op) ? `params: ${names.params(op)}` : `params: ${names.params(op)} = {}`);
  args.push('options?: RequestOptions');

  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => `\${encodeURIComponent(${names.pathArgument(name)})}`);
  const pathExpr = op.pathParams.length ? `\`${path}\`` : `'${path}'`;
  const method = op.httpMethod.toUpperCase();
  const queryNames = op.queryParams.map((p) => p.name);
  let request: string;
  if (op.body && queryNames.length > 0) {
    request = `{ method: '${method}', path: ${pathExpr}, query: pick(params, ${JSON.stringify(queryNames)}), body: omit(params, ${JSON.stringify(queryNames)}) }`;
  } else if (op.body) {
    request = `{ method: '${method}', path: ${pathExpr}, body: params }`;
  } else if (queryNames.length > 0) {
    request = `{ method: '${method}', path: ${pathExpr}, query: ${op.pagination ? 'page' : 'params'} }`;
  } else {
    request = `{ method: '${method}', path: ${pathExpr} }`;
  }
  const body = op.pagination
    ? `return new ListPromise((page) => this.sender.request(${request}, options), params);`
    : `return this.sender.request(${request}, options);`;

  const access = op.permission.auth === 'none' ? 'needs no key' : `needs \`${op.permission.resource}: ${op.permission.level}\``;
  const doc = [
    op.summary ?? op.id,
    ...(op.description ? ['', op.description] : []),
    '',
    `\`${method} ${op.path}\`; ${access}.${op.deprecated ? ' Deprecated.' : ''}`,
    '',
    '@example',
    ...exampleCall(op).split('\n'),
  ].join('\n');
  return [...docLines(doc, '  '), `  ${names.method(op)}(${args.join(', ')}): ${returnType(op)} {`, `    ${body}`, '  }'].join('\n');
}

function collectRefs(type: TypeRef, into: Set<string>): void {
  if (type.kind === 'ref') into.add(names.type(type.name));
  else if (type.kind === 'array') collectRefs(type.items, into);
  else if (type.kind === 'union') for (const v of type.variants) collectRefs(v, into);
  else if (type.kind === 'object') for (const p of type.properties) collectRefs(p.type, into);
}
