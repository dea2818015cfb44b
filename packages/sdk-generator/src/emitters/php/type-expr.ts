import type { ApiModel, Property, TypeRef } from '../../model.js';
import { names } from './names.js';

/** A PHPDoc type (PHPStan/Psalm syntax) for a model type: `int`, `'a'|'b'`, `list<Payment>`, `array{amount: int}`. */
export function docType(type: TypeRef, model: ApiModel, depth = 0): string {
  switch (type.kind) {
    case 'string':
      return type.enum ? type.enum.map((v) => quote(v)).join('|') : 'string';
    case 'integer':
      return 'int';
    case 'number':
      return 'float|int';
    case 'boolean':
      return 'bool';
    case 'null':
      return 'null';
    case 'literal':
      return typeof type.value === 'string' ? quote(type.value) : String(type.value);
    case 'array': {
      return `list<${docType(type.items, model, depth)}>`;
    }
    case 'union':
      return [...new Set(type.variants.map((v) => docType(v, model, depth)))].join('|');
    case 'ref': {
      const schema = model.schemas.find((s) => s.name === type.name);
      if (!schema || schema.type.kind === 'object') return names.model(type.name);
      return depth > 4 ? 'mixed' : docType(schema.type, model, depth + 1);
    }
    case 'unknown':
      return 'mixed';
    case 'object': {
      const extra = type.additionalProperties;
      if (type.properties.length === 0) return `array<string, ${extra && extra !== 'any' ? docType(extra, model, depth) : 'mixed'}>`;
      if (extra || depth > 3) return 'array<string, mixed>';
      return shape(type.properties, model, depth + 1);
    }
  }
}

/** An array shape: `array{amount: int, description?: string}`. */
export function shape(properties: Property[], model: ApiModel, depth = 0): string {
  if (properties.length === 0) return 'array<string, never>';
  return `array{${properties.map((p) => `${p.name}${p.required ? '' : '?'}: ${docType(p.type, model, depth)}`).join(', ')}}`;
}

export function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A PHPDoc block, indented. */
export function docBlock(lines: string[], indent: string): string[] {
  const clean = lines.map((l) => l.replace(/\*\//g, '*\\/'));
  return [`${indent}/**`, ...clean.map((l) => `${indent} * ${l}`.trimEnd()), `${indent} */`];
}

/** A PHP string literal for code. */
export function phpString(value: string): string {
  return quote(value);
}
