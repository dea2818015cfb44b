import type { Property, TypeRef } from '../../model.js';
import { pascalCase } from '../../naming.js';
import { type NamedObject, unionChoice, unwrapNullable } from '../shared/objects.js';

/** Type names the runtime already uses. */
const RESERVED = new Set([
  'Error',
  'List',
  'Iter',
  'Client',
  'Option',
  'ConnectionError',
  'ConfigurationError',
  'SignatureVerificationError',
]);

export const goNames = {
  type: (name: string) => (RESERVED.has(name) ? `${name}Body` : pascalCase(name, { acronyms: true })),
  field: (name: string) => {
    const n = pascalCase(name, { acronyms: true });
    return /^[A-Za-z]/.test(n) ? n : `X${n}`;
  },
};

/** A Go type for a model type; `optional` makes scalars and structs pointers. */
export function goType(type: TypeRef, records: Set<string>, optional = false): string {
  const { type: inner, nullable } = unwrapNullable(type);
  const base = baseType(inner, records);
  const pointer = (optional || nullable) && !/^(\[\]|map\[|interface\{\})/.test(base);
  return pointer ? `*${base}` : base;
}

function baseType(type: TypeRef, records: Set<string>): string {
  switch (type.kind) {
    case 'string':
      return 'string';
    case 'integer':
      return 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'literal':
      return typeof type.value === 'string' ? 'string' : typeof type.value === 'boolean' ? 'bool' : 'int64';
    case 'array':
      return `[]${goType(type.items, records)}`;
    case 'object': {
      const extra = type.additionalProperties;
      return `map[string]${extra && extra !== 'any' ? goType(extra, records) : 'interface{}'}`;
    }
    case 'ref':
      return records.has(type.name) ? goNames.type(type.name) : 'interface{}';
    case 'union': {
      const choice = unionChoice(type, (name) => records.has(name));
      return choice ? baseType(choice, records) : 'interface{}';
    }
    default:
      return 'interface{}';
  }
}

/** `// text` lines, wrapped at paragraph breaks. */
export function goDoc(text: string | undefined, indent: string): string[] {
  if (!text) return [];
  return text.split('\n').map((l) => (l ? `${indent}// ${l}` : `${indent}//`));
}

/** Values of an enum, for a field's comment. */
function enumNote(type: TypeRef): string | undefined {
  const { type: inner } = unwrapNullable(type);
  if (inner.kind === 'string' && inner.enum) return `One of: ${inner.enum.map((v) => `"${v}"`).join(', ')}.`;
  if (inner.kind === 'array' && inner.items.kind === 'string' && inner.items.enum)
    return `Each one of: ${inner.items.enum.map((v) => `"${v}"`).join(', ')}.`;
  return undefined;
}

/**
 * A struct, aligned as gofmt aligns it: consecutive fields without a comment between them
 * share columns. `input` marks params (optional fields are pointers with omitempty).
 */
export function goStruct(object: NamedObject, records: Set<string>, doc?: string): string {
  const rows: Array<{ comment: string[]; cells: [string, string, string] }> = object.properties.map((p: Property) => {
    const optional = !p.required;
    const type = goType(p.type, records, optional);
    const tag = `\`json:"${p.name}${optional ? ',omitempty' : ''}"\``;
    const note = [p.description, enumNote(p.type)].filter(Boolean).join(' ');
    return { comment: goDoc(note || undefined, '\t'), cells: [goNames.field(p.name), type, tag] };
  });
  const lines: string[] = [];
  let block: Array<[string, string, string]> = [];
  const flush = () => {
    const w0 = Math.max(...block.map((c) => c[0].length));
    const w1 = Math.max(...block.map((c) => c[1].length));
    for (const [a, b, c] of block) lines.push(`\t${a.padEnd(w0)} ${b.padEnd(w1)} ${c}`);
    block = [];
  };
  for (const row of rows) {
    if (row.comment.length) {
      if (block.length) flush();
      lines.push(...row.comment);
    }
    block.push(row.cells);
  }
  if (block.length) flush();
  const name = goNames.type(object.name);
  return [
    ...goDoc(doc ?? object.description ?? `${name} is the \`${object.name}\` object.`, ''),
    `type ${name} struct {`,
    ...lines,
    '}',
  ].join('\n');
}
