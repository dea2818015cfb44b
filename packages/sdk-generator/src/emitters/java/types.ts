import type { TypeRef } from '../../model.js';
import { camelCase, pascalCase } from '../../naming.js';
import { unionChoice, unwrapNullable } from '../shared/objects.js';

const KEYWORDS = new Set(
  'abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while record var yield true false null'.split(
    ' ',
  ),
);
/** Names java.lang (or the runtime) already uses. */
const RESERVED_TYPES = new Set(['Error', 'Object', 'String', 'Record', 'Page', 'Params', 'Json', 'Query', 'Webhook', 'Version', 'Errors']);

export const javaNames = {
  type: (name: string) => (RESERVED_TYPES.has(name) ? `${name}Body` : pascalCase(name)),
  member: (name: string) => {
    const n = camelCase(name);
    const safe = /^[a-z]/.test(n) ? n : `x${n}`;
    return KEYWORDS.has(safe) ? `${safe}_` : safe;
  },
};

/** A Java type; `boxed` for nullable or optional values (primitives become Long, Boolean, ...). */
export function javaType(type: TypeRef, records: Set<string>, boxed = false): string {
  const { type: inner, nullable } = unwrapNullable(type);
  const box = boxed || nullable;
  switch (inner.kind) {
    case 'string':
      return 'String';
    case 'integer':
      return box ? 'Long' : 'long';
    case 'number':
      return box ? 'Double' : 'double';
    case 'boolean':
      return box ? 'Boolean' : 'boolean';
    case 'literal':
      return typeof inner.value === 'string'
        ? 'String'
        : typeof inner.value === 'boolean'
          ? box
            ? 'Boolean'
            : 'boolean'
          : box
            ? 'Long'
            : 'long';
    case 'array':
      return `List<${javaType(inner.items, records, true)}>`;
    case 'object': {
      const extra = inner.additionalProperties;
      return `Map<String, ${extra && extra !== 'any' ? javaType(extra, records, true) : 'Object'}>`;
    }
    case 'ref':
      return records.has(inner.name) ? javaNames.type(inner.name) : 'Object';
    case 'union': {
      const choice = unionChoice(inner, (n) => records.has(n));
      return choice ? javaType(choice, records, box) : 'Object';
    }
    default:
      return 'Object';
  }
}

/** The expression converting parsed JSON `expr` into the Java type of `type`. */
export function fromJson(type: TypeRef, expr: string, records: Set<string>, boxed = false, depth = 0): string {
  const { type: inner, nullable } = unwrapNullable(type);
  const box = boxed || nullable;
  const v = `x${depth}`;
  switch (inner.kind) {
    case 'string':
      return `Json.string(${expr})`;
    case 'integer':
      return box ? `Json.optLong(${expr})` : `Json.longValue(${expr})`;
    case 'number':
      return box ? `Json.optDouble(${expr})` : `Json.doubleValue(${expr})`;
    case 'boolean':
      return box ? `Json.optBool(${expr})` : `Json.boolValue(${expr})`;
    case 'literal':
      if (typeof inner.value === 'string') return `Json.string(${expr})`;
      if (typeof inner.value === 'boolean') return box ? `Json.optBool(${expr})` : `Json.boolValue(${expr})`;
      return box ? `Json.optLong(${expr})` : `Json.longValue(${expr})`;
    case 'array':
      return `Json.list(${expr}, ${v} -> ${fromJson(inner.items, v, records, true, depth + 1)})`;
    case 'object': {
      const extra = inner.additionalProperties;
      return `Json.map(${expr}, ${v} -> ${extra && extra !== 'any' ? fromJson(extra, v, records, true, depth + 1) : v})`;
    }
    case 'ref':
      return records.has(inner.name) ? `${javaNames.type(inner.name)}.fromJson(${expr})` : expr;
    case 'union': {
      const choice = unionChoice(inner, (n) => records.has(n));
      return choice ? fromJson(choice, expr, records, box, depth) : expr;
    }
    default:
      return expr;
  }
}

/** A Javadoc block. */
export function javadoc(text: string | undefined, indent: string): string[] {
  if (!text) return [];
  const lines = text.replace(/\*\//g, '*&#47;').replace(/@/g, '{@literal @}').split('\n');
  return lines.length === 1
    ? [`${indent}/** ${lines[0]} */`]
    : [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`.trimEnd()), `${indent} */`];
}
