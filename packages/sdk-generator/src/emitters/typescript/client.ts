import type { ApiModel, Resource } from '../../model.js';
import { names } from './names.js';
import { HEADER } from './resources.js';

/** src/client.ts: the client class with one property per top-level resource. */
export function emitClient(model: ApiModel): string {
  const roots = model.resources;
  const hasEvent = model.schemas.some((s) => s.name === 'Event');
  const eventType = hasEvent ? 'Event' : 'unknown';
  return `${HEADER}
${roots.map((r) => `import { ${names.resourceClass(r.path)} } from './${names.resourceFile(r.path)}.js';`).join('\n')}
import { type ClientOptions, RequestSender } from './runtime/request-sender.js';
import { Webhooks } from './runtime/webhooks.js';
${hasEvent ? "import type { Event } from './types.js';\n" : ''}import { SDK_VERSION } from './version.js';

const webhooks = new Webhooks<${eventType}>();

/**
 * The client for the payments service. Build one per key and reuse it.
 *
 * @example
 * import { ${names.client} } from 'payments-sdk';
 * const client = new ${names.client}(process.env.PAYMENTS_SECRET_KEY!, { apiVersion: '${model.latestVersion}' });
 */
export class ${names.client} {
  static readonly VERSION = SDK_VERSION;
  /** Webhook signature verification; needs no key. */
  static readonly webhooks = webhooks;
  readonly webhooks = webhooks;
${roots.map((r) => `  readonly ${names.resourceProperty(r.name)}: ${names.resourceClass(r.path)};`).join('\n')}

  /**
   * @param apiKey A secret (\`service_...\`) or restricted (\`rk_...\`) key. Publishable keys are refused.
   * @param options \`apiVersion\`, \`timeout\` (ms, default 30000), \`maxNetworkRetries\` (default 2), \`baseUrl\`.
   */
  constructor(apiKey: string, options: ClientOptions = {}) {
    const sender = new RequestSender(apiKey, options);
${roots.map((r) => `    this.${names.resourceProperty(r.name)} = new ${names.resourceClass(r.path)}(sender);`).join('\n')}
  }
}
`;
}

/** src/index.ts: the package entry. */
export function emitIndex(model: ApiModel): string {
  const all = (function collect(rs: Resource[]): Resource[] {
    return rs.flatMap((r) => [r, ...collect(r.children)]);
  })(model.resources);
  return `${HEADER}
import { ${names.client} } from './client.js';

export { ${names.client} } from './client.js';
export * from './errors.js';
${all.map((r) => `export { ${names.resourceClass(r.path)} } from './${names.resourceFile(r.path)}.js';`).join('\n')}
export type { ListObject } from './runtime/pagination.js';
export { ListPromise } from './runtime/pagination.js';
export type { ClientOptions, RequestOptions } from './runtime/request-sender.js';
export { DEFAULT_TOLERANCE_SECONDS, Webhooks } from './runtime/webhooks.js';
export type * from './types.js';
export { API_VERSIONS, type ApiVersionName, LATEST_API_VERSION, SDK_VERSION } from './version.js';

export default ${names.client};
`;
}

/** src/version.ts. */
export function emitVersion(model: ApiModel, sdkVersion: string): string {
  return `${HEADER}
/** This SDK's version, sent in \`User-Agent\`. */
export const SDK_VERSION = '${sdkVersion}';

/** The API releases \`apiVersion\` accepts, oldest first. */
export const API_VERSIONS = [${model.versions.map((v) => `'${v}'`).join(', ')}] as const;

/** A release date for \`apiVersion\`: one of API_VERSIONS (suggested by editors), or any other \`YYYY-MM-DD\`. */
export type ApiVersionName = (typeof API_VERSIONS)[number] | (string & {});

/** The release this SDK's types describe. */
export const LATEST_API_VERSION = '${model.latestVersion}';
`;
}
