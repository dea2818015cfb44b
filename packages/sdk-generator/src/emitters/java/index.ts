import { readdirSync, readFileSync } from 'node:fs';
import { GENERATED_NOTICE, type Emitter, type GeneratedFile } from '../../emitter.js';
import type { ApiModel, Operation, Resource } from '../../model.js';
import { pascalCase } from '../../naming.js';
import { flattenResources, hoist, type NamedObject, paramProperties, responseObjects } from '../shared/objects.js';
import { emitJavaReadme, JAVA_PACKAGE } from './readme.js';
import { fromJson, javadoc, javaNames, javaType } from './types.js';

export const JAVA_HEADER = `// ${GENERATED_NOTICE}`;
const SDK_VERSION = '1.0.0';
const RUNTIME_DIR = new URL('./runtime/', import.meta.url);
const SRC = `src/main/java/${JAVA_PACKAGE.replace(/\./g, '/')}`;

export const javaApi = {
  resourceClass: (path: string[]) => `${pascalCase(path)}Resource`,
  accessor: (name: string) => javaNames.member(name),
  method: (op: Operation) => javaNames.member(op.name),
  /** Model name of an operation's params; javaNames.type cases it. */
  params: (op: Operation) => `${pascalCase([...op.resourcePath, op.name])}Params`,
  exception: (type: string) => `${pascalCase(type.replace(/_error$/, ''), { acronyms: true })}Error`,
};

const IMPORTS = 'import java.util.List;\nimport java.util.Map;';

/**
 * The Java SDK (sdks/java, package com.paymentsservice.sdk): Java 17, java.net.http only, a
 * builder for the client, records for objects, builders for parameters, unchecked typed exceptions.
 */
export const javaEmitter: Emitter = {
  language: 'java',
  outDir: 'sdks/java',
  ignore: ['build', 'target', 'out'],
  emit(model: ApiModel): GeneratedFile[] {
    const objects = new Map<string, NamedObject>(responseObjects(model).map((o) => [o.name, o]));
    const responseNames = new Set(objects.keys());
    const params: NamedObject[] = [];
    for (const op of model.operations) {
      if (!takesParams(op)) continue;
      const name = javaApi.params(op);
      params.push({
        name,
        properties: paramProperties(op).map((p) => ({ ...p, type: hoist(p.type, `${name}${pascalCase(p.name)}`, objects) })),
      });
    }
    const paramNames = new Set([...params.map((p) => p.name), ...[...objects.keys()].filter((n) => !responseNames.has(n))]);
    const records = new Set([...objects.keys(), ...params.map((p) => p.name)]);
    const file = (name: string, contents: string) => ({ path: `${SRC}/${name}.java`, contents });
    return [
      { path: 'README.md', contents: emitJavaReadme(model, SDK_VERSION) },
      file('Version', emitVersion(model)),
      file('Errors', emitErrors(model)),
      ...model.errorTypes.map((t) => file(javaApi.exception(t.type), emitException(t.type, t.statuses, t.codes))),
      file('PaymentsClient', emitClient(model)),
      ...[...objects.values()].filter((o) => responseNames.has(o.name)).map((o) => file(javaNames.type(o.name), emitRecord(o, records))),
      ...[...params, ...[...objects.values()].filter((o) => paramNames.has(o.name))].map((o) =>
        file(javaNames.type(o.name), emitParams(o, records)),
      ),
      ...flattenResources(model.resources).map((r) => file(javaApi.resourceClass(r.path), emitResource(r, records))),
      ...readdirSync(RUNTIME_DIR)
        .filter((name) => name.endsWith('.java'))
        .sort()
        .map((name) => ({ path: `${SRC}/${name}`, contents: `${JAVA_HEADER}\n${readFileSync(new URL(name, RUNTIME_DIR), 'utf8')}` })),
    ];
  },
};

const takesParams = (op: Operation) => op.body !== undefined || op.queryParams.length > 0;
const paramsRequired = (op: Operation) => paramProperties(op).some((p) => p.required);

function emitRecord(object: NamedObject, records: Set<string>): string {
  const name = javaNames.type(object.name);
  const components = object.properties.map((p) => `${javaType(p.type, records, !p.required)} ${javaNames.member(p.name)}`);
  const args = object.properties.map((p) => `        ${fromJson(p.type, `m.get(${JSON.stringify(p.name)})`, records, !p.required)}`);
  const docs = object.properties
    .filter((p) => p.description)
    .map((p) => ` * @param ${javaNames.member(p.name)} ${p.description?.replace(/\n/g, ' ')}`);
  return `${JAVA_HEADER}
package ${JAVA_PACKAGE};

${IMPORTS}

/**
 * ${object.description ?? `The \`${object.name}\` object.`}${docs.length ? `\n *\n${docs.join('\n')}` : ''}
 */
public record ${name}(
    ${components.join(',\n    ')}) {
  /** Builds the record from parsed JSON; null stays null. */
  public static ${name} fromJson(Object json) {
    if (json == null) return null;
    Map<String, Object> m = Json.object(json);
    return new ${name}(
${args.join(',\n')});
  }
}
`;
}

function emitParams(object: NamedObject, records: Set<string>): string {
  const name = javaNames.type(object.name);
  const setters = object.properties.map((p) => {
    const member = javaNames.member(p.name);
    return [
      ...javadoc(`${p.description ? `${p.description} ` : ''}${p.required ? 'Required.' : 'Optional.'}`, '    '),
      `    public Builder ${member}(${javaType(p.type, records, !p.required)} ${member}) {`,
      `      params.values.put(${JSON.stringify(p.name)}, ${member});`,
      '      return this;',
      '    }',
    ].join('\n');
  });
  return `${JAVA_HEADER}
package ${JAVA_PACKAGE};

${IMPORTS}

/** ${object.description ?? `Parameters: \`${name}.builder()...build()\`. Parameters not set are left out of the request.`} */
public final class ${name} extends Params {
  public static Builder builder() {
    return new Builder();
  }

  public static final class Builder {
    private final ${name} params = new ${name}();
${setters.length ? `\n${setters.join('\n\n')}\n` : ''}
    public ${name} build() {
      return params;
    }
  }
}
`;
}

function emitResource(resource: Resource, records: Set<string>): string {
  const cls = javaApi.resourceClass(resource.path);
  const children = resource.children.map((c) => ({ field: javaApi.accessor(c.name), cls: javaApi.resourceClass(c.path) }));
  const methods = resource.operations.flatMap((op) => emitMethods(op, records));
  return `${JAVA_HEADER}
package ${JAVA_PACKAGE};

${IMPORTS}

/** The ${resource.path.join('.')} operations: {@code client.${resource.path.map((p) => `${javaApi.accessor(p)}()`).join('.')}}. */
public final class ${cls} {
  private final RequestSender sender;
${children.map((c) => `  private final ${c.cls} ${c.field};`).join('\n')}
  ${cls}(RequestSender sender) {
    this.sender = sender;
${children.map((c) => `    this.${c.field} = new ${c.cls}(sender);`).join('\n')}
  }
${children.map((c) => `\n  public ${c.cls} ${c.field}() {\n    return ${c.field};\n  }\n`).join('')}
${methods.join('\n\n')}
}
`;
}

function emitMethods(op: Operation, records: Set<string>): string[] {
  const name = javaApi.method(op);
  const pathArgs = op.pathParams.map((p) => `String ${javaNames.member(p.name)}`);
  const pathNames = op.pathParams.map((p) => javaNames.member(p.name));
  const paramsType = takesParams(op) ? javaNames.type(javaApi.params(op)) : undefined;
  const path = op.path
    .split(/(\{\w+\})/)
    .filter(Boolean)
    .map((part) => (part.startsWith('{') ? `RequestSender.segment(${javaNames.member(part.slice(1, -1))})` : JSON.stringify(part)))
    .join(' + ');
  const method = op.httpMethod.toUpperCase();
  const queryNames = op.queryParams.map((p) => JSON.stringify(p.name));
  const isGet = op.httpMethod === 'get' || op.httpMethod === 'delete';
  let query = 'null';
  let body = 'null';
  if (paramsType && isGet) query = 'params.toMap()';
  else if (paramsType && queryNames.length) {
    query = `Params.pick(params.toMap(), ${queryNames.join(', ')})`;
    body = `Params.omit(params.toMap(), ${queryNames.join(', ')})`;
  } else if (paramsType) body = 'params.toMap()';
  const item = op.pagination ? javaType(op.pagination.item, records) : undefined;
  const returns = item ? `Page<${item}>` : javaType(op.response, records);
  const call = item
    ? `Page.fetch(sender, ${path}, ${query}, options, ${item}::fromJson, ${item}::id)`
    : returns === 'Object'
      ? `sender.request("${method}", ${path}, ${query}, ${body}, options)`
      : `${returns}.fromJson(sender.request("${method}", ${path}, ${query}, ${body}, options))`;
  const access = op.permission.auth === 'none' ? 'needs no key' : `needs ${op.permission.resource}: ${op.permission.level}`;
  const doc = javadoc(
    [
      `${op.summary ?? op.id}.`.replace(/\.\.$/, '.'),
      ...(op.description ? ['', op.description] : []),
      '',
      `${method} ${op.path}; ${access}.`,
    ].join('\n'),
    '  ',
  );
  const full = [...pathArgs, ...(paramsType ? [`${paramsType} params`] : []), 'RequestOptions options'];
  const out = [[...doc, `  public ${returns} ${name}(${full.join(', ')}) {`, `    return ${call};`, '  }'].join('\n')];
  out.push(
    [
      `  public ${returns} ${name}(${full.slice(0, -1).join(', ')}) {`,
      `    return ${name}(${[...pathNames, ...(paramsType ? ['params'] : []), 'null'].join(', ')});`,
      '  }',
    ].join('\n'),
  );
  if (paramsType && !paramsRequired(op)) {
    out.push(
      [
        `  public ${returns} ${name}(${pathArgs.join(', ')}) {`,
        `    return ${name}(${[...pathNames, `${paramsType}.builder().build()`, 'null'].join(', ')});`,
        '  }',
      ].join('\n'),
    );
  }
  return out;
}

function emitException(type: string, statuses: number[], codes: ApiModel['errorCodes']): string {
  const name = javaApi.exception(type);
  return `${JAVA_HEADER}
package ${JAVA_PACKAGE};

${IMPORTS}

/**
 * error.type {@code ${type}}${statuses.length ? `, HTTP ${statuses.join(', ')}` : ''}. Codes:
 * <ul>
${codes.map((c) => ` * <li>{@code ${c.code}} (${c.status}): ${c.description.replace(/\*\//g, '*&#47;').replace(/[<>]/g, (ch) => (ch === '<' ? '&lt;' : '&gt;'))}</li>`).join('\n')}
 * </ul>
 */
public class ${name} extends PaymentsError {
  private static final long serialVersionUID = 1L;

  public ${name}(String message, String code, String param, String declineCode, Integer statusCode, String requestId, Map<String, List<String>> headers) {
    super(message, ${JSON.stringify(type)}, code, param, declineCode, statusCode, requestId, headers, null);
  }
}
`;
}

function emitErrors(model: ApiModel): string {
  const fallback = (preferred: string) => (model.errorTypes.find((t) => t.type === preferred) ?? model.errorTypes[0])?.type ?? preferred;
  return `${JAVA_HEADER}
package ${JAVA_PACKAGE};

${IMPORTS}

/** Maps error replies to the typed exceptions. */
public final class Errors {
  private Errors() {}

  /** Every error.code the service answers with, and its error.type. */
  public static final Map<String, String> CODES = Map.ofEntries(
${model.errorCodes.map((c) => `      Map.entry(${JSON.stringify(c.code)}, ${JSON.stringify(c.type)})`).join(',\n')});

  /** Statuses that only one error type answers with: the fallback when a reply has no error body. */
  private static final Map<Integer, String> STATUS_TYPES = Map.ofEntries(
${Object.entries(model.statusErrorTypes)
  .map(([s, t]) => `      Map.entry(${s}, ${JSON.stringify(t)})`)
  .join(',\n')});

  /** The typed exception for an error reply: by error.type, else by status. */
  static PaymentsError fromResponse(int status, Object body, Map<String, List<String>> headers) {
    Map<String, Object> raw = body instanceof Map<?, ?> && Json.object(body).get("error") instanceof Map<?, ?> e ? Json.object(e) : Map.of();
    String type = Json.string(raw.get("type"));
    String message = raw.get("message") != null ? Json.string(raw.get("message")) : "The service answered " + status + " without an error body.";
    String code = Json.string(raw.get("code"));
    String param = Json.string(raw.get("param"));
    String declineCode = Json.string(raw.get("decline_code"));
    String requestId = raw.get("request_id") != null ? Json.string(raw.get("request_id")) : first(headers, "request-id");
    if (type == null || !KNOWN.contains(type)) {
      type = STATUS_TYPES.getOrDefault(status, status >= 500 ? ${JSON.stringify(fallback('api_error'))} : ${JSON.stringify(fallback('invalid_request_error'))});
    }
    return switch (type) {
${model.errorTypes.map((t) => `      case ${JSON.stringify(t.type)} -> new ${javaApi.exception(t.type)}(message, code, param, declineCode, status, requestId, headers);`).join('\n')}
      default -> new PaymentsError(message, type, code, param, declineCode, status, requestId, headers, null);
    };
  }

  private static final java.util.Set<String> KNOWN = java.util.Set.of(${model.errorTypes.map((t) => JSON.stringify(t.type)).join(', ')});

  private static String first(Map<String, List<String>> headers, String name) {
    List<String> values = headers.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }
}
`;
}

function emitClient(model: ApiModel): string {
  const roots = model.resources.map((r) => ({ field: javaApi.accessor(r.name), cls: javaApi.resourceClass(r.path) }));
  const hasEvent = model.schemas.some((s) => s.name === 'Event');
  return `${JAVA_HEADER}
package ${JAVA_PACKAGE};

import java.net.http.HttpClient;
import java.time.Duration;

/**
 * The client for the payments service. Build one per key and reuse it (it is thread-safe):
 *
 * <pre>{@code
 * PaymentsClient client = PaymentsClient.builder(System.getenv("PAYMENTS_SECRET_KEY"))
 *     .apiVersion("${model.latestVersion}")
 *     .build();
 * }</pre>
 */
public final class PaymentsClient {
${roots.map((r) => `  private final ${r.cls} ${r.field};`).join('\n')}

  private PaymentsClient(RequestSender sender) {
${roots.map((r) => `    this.${r.field} = new ${r.cls}(sender);`).join('\n')}
  }

  /** A builder for a secret (service_...) or restricted (rk_...) key; build() refuses publishable keys (pk_...). */
  public static Builder builder(String apiKey) {
    return new Builder(apiKey);
  }
${roots.map((r) => `\n  public ${r.cls} ${r.field}() {\n    return ${r.field};\n  }`).join('\n')}

  /**
   * Verifies a webhook delivery (see {@link Webhook#verifySignature}) against the raw body and returns the event.
   * Throws SignatureVerificationError when the signature does not match or is older than five minutes.
   */
  public static ${hasEvent ? 'Event' : 'Object'} constructEvent(String payload, String signatureHeader, String secret) {
    Webhook.verifySignature(payload, signatureHeader, secret, Webhook.DEFAULT_TOLERANCE);
    try {
      return ${hasEvent ? 'Event.fromJson(Json.parse(payload))' : 'Json.parse(payload)'};
    } catch (RuntimeException e) {
      throw new SignatureVerificationError("The webhook payload is not a JSON event.", null, e);
    }
  }

  public static final class Builder {
    private final String apiKey;
    private String apiVersion;
    private Duration timeout = RequestSender.DEFAULT_TIMEOUT;
    private int maxNetworkRetries = RequestSender.DEFAULT_MAX_NETWORK_RETRIES;
    private String baseUrl = RequestSender.DEFAULT_BASE_URL;
    private HttpClient httpClient;

    private Builder(String apiKey) {
      this.apiKey = apiKey;
    }

    /** Pins the API version (YYYY-MM-DD), sent as Service-Version. Unset: the account's default. */
    public Builder apiVersion(String apiVersion) {
      this.apiVersion = apiVersion;
      return this;
    }

    /** How long each attempt may take (default 30000 ms) before it is abandoned, then retried or a ConnectionError ("timeout"). */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /** Retries after a connection error, timeout, 409, 429 or 5xx (default 2; 0 turns them off). */
    public Builder maxNetworkRetries(int maxNetworkRetries) {
      this.maxNetworkRetries = maxNetworkRetries;
      return this;
    }

    /** Where the service listens, without /v1 (default http://127.0.0.1:4242). */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = baseUrl;
      return this;
    }

    /** The java.net.http.HttpClient to send with (proxies, TLS); by default a new one. */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = httpClient;
      return this;
    }

    public PaymentsClient build() {
      HttpClient http = httpClient != null ? httpClient : HttpClient.newBuilder().connectTimeout(timeout).build();
      return new PaymentsClient(new RequestSender(apiKey, apiVersion, timeout, maxNetworkRetries, baseUrl, http));
    }
  }
}
`;
}

function emitVersion(model: ApiModel): string {
  return `${JAVA_HEADER}
package ${JAVA_PACKAGE};

import java.util.List;

/** Versions of this SDK and of the API it describes. */
public final class Version {
  private Version() {}

  /** This SDK's version, sent in User-Agent. */
  public static final String SDK_VERSION = "${SDK_VERSION}";

  /** The release this SDK's records describe. */
  public static final String LATEST_API_VERSION = "${model.latestVersion}";

  /** The API releases apiVersion accepts, oldest first. */
  public static final List<String> API_VERSIONS = List.of(${model.versions.map((v) => JSON.stringify(v)).join(', ')});
}
`;
}
