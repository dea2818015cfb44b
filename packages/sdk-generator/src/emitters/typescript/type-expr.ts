import type { Property, TypeRef } from '../../model.js';
import { names } from './names.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A TypeScript type expression for a model type. `indent` is the indentation of the line it starts on. */
export function typeExpr(type: TypeRef, indent = ''): string {
  switch (type.kind) {
    case 'string':
      return type.enum ? type.enum.map((v) => quote(v)).join(' | ') : 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'literal':
      return typeof type.value === 'string' ? quote(type.value) : String(type.value);
    case 'array': {
      const inner = typeExpr(type.items, indent);
      return /[|&{ ]/.test(inner) ? `Array<${inner}>` : `${inner}[]`;
    }
    case 'union':
      return type.variants.map((v) => typeExpr(v, indent)).join(' | ');
    case 'ref':
      return names.type(type.name);
    case 'unknown':
      return 'unknown';
    case 'object':
      return objectExpr(type.properties, type.additionalProperties, indent);
  }
}

function objectExpr(properties: Property[], extra: TypeRef | 'any' | undefined, indent: string): string {
  const valueType = extra === 'any' ? 'unknown' : extra ? typeExpr(extra, indent) : undefined;
  if (properties.length === 0) return valueType ? `Record<string, ${valueType}>` : 'Record<string, never>';
  const lines = propertyLines(properties, `${indent}  `);
  if (valueType) lines.push(`${indent}  [key: string]: ${valueType}${properties.length ? ' | undefined' : ''};`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** The member lines of an interface or object type, each with its JSDoc. */
export function propertyLines(properties: Property[], indent: string): string[] {
  return properties.flatMap((p) => [
    ...docLines(p.description, indent),
    `${indent}${IDENTIFIER.test(p.name) ? p.name : quote(p.name)}${p.required ? '' : '?'}: ${typeExpr(p.type, indent)};`,
  ]);
}

export function docLines(text: string | undefined, indent: string): string[] {
  if (!text) return [];
  const lines = text.replace(/\*\//g, '*\\/').split('\n');
  return lines.length === 1
    ? [`${indent}/** ${lines[0]} */`]
    : [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`.trimEnd()), `${indent} */`];
}

export function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
