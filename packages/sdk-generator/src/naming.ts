/**
 * Identifiers in the model are the wire names (`payments`, `starting_after`, `api_error`).
 * Emitters case them for their language through these helpers.
 */

/** Splits `payment_method`, `paymentMethod`, `Idempotency-Key`, `checkout.sessions` into lower-case words. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const ACRONYMS: Readonly<Record<string, string>> = { api: 'API', url: 'URL', id: 'ID', http: 'HTTP' };

const upperFirst = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/** `payment_method` → `PaymentMethod`; with `acronyms`, `api_error` → `APIError`. */
export function pascalCase(name: string | string[], options: { acronyms?: boolean } = {}): string {
  const list = Array.isArray(name) ? name.flatMap(words) : words(name);
  return list.map((w) => (options.acronyms && ACRONYMS[w]) || upperFirst(w)).join('');
}

/** `payment_method` → `paymentMethod`. */
export function camelCase(name: string | string[]): string {
  const pascal = pascalCase(name);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

/** `paymentMethod` → `payment_method`. */
export function snakeCase(name: string | string[]): string {
  return (Array.isArray(name) ? name.flatMap(words) : words(name)).join('_');
}

/** `paymentMethod` → `payment-method`. */
export function kebabCase(name: string | string[]): string {
  return (Array.isArray(name) ? name.flatMap(words) : words(name)).join('-');
}
