import type { ApiModel, Operation, Property } from '../../model.js';
import { names } from './names.js';
import { HEADER, hasParams } from './resources.js';
import { docLines, propertyLines, typeExpr } from './type-expr.js';

/** src/types.ts: every component schema as an interface, and every method's params. */
export function emitTypes(model: ApiModel): string {
  const blocks: string[] = [];
  for (const schema of model.schemas) {
    const doc = docLines(schema.description, '');
    if (schema.type.kind === 'object' && schema.type.properties.length > 0 && !schema.type.additionalProperties) {
      blocks.push(
        [...doc, `export interface ${names.type(schema.name)} {`, ...propertyLines(schema.type.properties, '  '), '}'].join('\n'),
      );
    } else {
      blocks.push([...doc, `export type ${names.type(schema.name)} = ${typeExpr(schema.type)};`].join('\n'));
    }
  }
  for (const op of model.operations) {
    if (!hasParams(op)) continue;
    blocks.push(emitParams(op));
  }
  return [
    HEADER,
    '// Response objects are in the newest API version’s shape; an older `apiVersion` may leave fields out.',
    '',
    blocks.join('\n\n'),
    '',
  ].join('\n');
}

function emitParams(op: Operation): string {
  const name = names.params(op);
  const doc = docLines(`Parameters of \`${op.id}\` (\`${op.httpMethod.toUpperCase()} ${op.path}\`).`, '');
  const query: Property[] = op.queryParams.map((p) => ({
    name: p.name,
    type: p.type,
    required: p.required,
    ...(p.description ? { description: p.description } : {}),
  }));
  const body = op.body?.type;
  if (body && body.kind !== 'object') {
    const queryPart = query.length ? ` & {\n${propertyLines(query, '  ').join('\n')}\n}` : '';
    return [...doc, `export type ${name} = ${typeExpr(body)}${queryPart};`].join('\n');
  }
  const properties = [...(body?.kind === 'object' ? body.properties : []), ...query];
  const withDefaults = properties.map((p) =>
    p.default === undefined
      ? p
      : { ...p, description: `${p.description ? `${p.description} ` : ''}Default: \`${JSON.stringify(p.default)}\`.` },
  );
  if (properties.length === 0) return [...doc, `export type ${name} = Record<string, never>;`].join('\n');
  return [...doc, `export interface ${name} {`, ...propertyLines(withDefaults, '  '), '}'].join('\n');
}
