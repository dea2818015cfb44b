import type { Property, TypeRef } from '../../model.js';
import { snakeCase } from '../../naming.js';
import type { NamedObject } from '../shared/objects.js';

const KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

/** A Python identifier for a wire name: `payment_method`; keywords get a trailing `_` (`from_`). */
export function pyName(name: string): string {
  const snake = /^[a-z_][a-z0-9_]*$/.test(name) ? name : snakeCase(name);
  return KEYWORDS.has(snake) ? `${snake}_` : snake;
}

export const isIdentifier = (name: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !KEYWORDS.has(name);

/** A Python type expression (the SDK's modules use `from __future__ import annotations`). */
export function pyType(type: TypeRef): string {
  switch (type.kind) {
    case 'string':
      return type.enum ? `Literal[${type.enum.map(pyString).join(', ')}]` : 'str';
    case 'integer':
      return 'int';
    case 'number':
      return 'float';
    case 'boolean':
      return 'bool';
    case 'null':
      return 'None';
    case 'literal':
      return `Literal[${typeof type.value === 'string' ? pyString(type.value) : type.value === true ? 'True' : type.value === false ? 'False' : String(type.value)}]`;
    case 'array':
      return `List[${pyType(type.items)}]`;
    case 'object': {
      const extra = type.additionalProperties;
      return `Dict[str, ${extra && extra !== 'any' ? pyType(extra) : 'Any'}]`;
    }
    case 'union': {
      const variants = [...new Set(type.variants.map(pyType))];
      const nonNull = variants.filter((v) => v !== 'None');
      const joined = nonNull.length === 1 ? nonNull[0] : `Union[${nonNull.join(', ')}]`;
      return nonNull.length < variants.length ? `Optional[${joined}]` : (joined as string);
    }
    case 'ref':
      return type.name;
    case 'unknown':
      return 'Any';
  }
}

export function pyString(value: string): string {
  return JSON.stringify(value);
}

/** A docstring body indented by `indent`. */
export function docstring(text: string, indent: string): string[] {
  const lines = text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"').split('\n');
  if (lines.length === 1) return [`${indent}"""${lines[0]}"""`];
  return [`${indent}"""${lines[0]}`, ...lines.slice(1).map((l) => (l ? `${indent}${l}` : '')), `${indent}"""`];
}

/** A TypedDict for a named object; the functional form when a key is not an identifier. */
export function typedDict(object: NamedObject): string {
  const field = (p: Property) => (p.required ? pyType(p.type) : `NotRequired[${pyType(p.type)}]`);
  if (object.properties.every((p) => isIdentifier(p.name))) {
    return [
      `class ${object.name}(TypedDict):`,
      ...docstring(object.description ?? `The \`${object.name}\` object.`, '    '),
      '',
      ...object.properties.flatMap((p) => [
        ...(p.description ? [`    #: ${p.description.replace(/\n/g, ' ')}`] : []),
        `    ${p.name}: ${field(p)}`,
      ]),
    ].join('\n');
  }
  return [
    `${object.name} = TypedDict(`,
    `    ${pyString(object.name)},`,
    '    {',
    ...object.properties.map((p) => `        ${pyString(p.name)}: ${pyString(field(p))},`),
    '    },',
    ')',
  ].join('\n');
}
