/**
 * Encodes query parameters the way the service parses them: scalars as `name=value`,
 * objects as `name[key]=value` (OpenAPI deepObject), arrays as `name[]=value`. Undefined
 * values are left out.
 */
export function encodeQuery(params: object | undefined): string {
  if (!params) return '';
  const pairs: string[] = [];
  const add = (name: string, value: unknown): void => {
    if (value === undefined) return;
    if (Array.isArray(value)) {
      for (const item of value) add(`${name}[]`, item);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) add(`${name}[${key}]`, inner);
    } else {
      pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value === null ? '' : String(value))}`);
    }
  };
  for (const [name, value] of Object.entries(params)) add(name, value);
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

/** The members of `params` named in `keys` (an operation's query parameters). */
export function pick(params: object, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([k]) => keys.includes(k)));
}

/** The members of `params` not named in `keys` (an operation's body). */
export function omit(params: object, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([k]) => !keys.includes(k)));
}
