import { GENERATED_NOTICE } from '../../emitter.js';
import type { ApiModel, NamedSchema, Operation, Property, Resource, TypeRef } from '../../model.js';
import { pascalCase } from '../../naming.js';

export const HEADER = `// ${GENERATED_NOTICE}`;

const RESERVED = new Set(['Error', 'Exception', 'Object', 'String', 'Type', 'Task', 'Json', 'Webhooks', 'ListPage']);

export const names = {
  client: 'PaymentsClient',
  model: (schema: string) => (RESERVED.has(pascalCase(schema)) ? `${pascalCase(schema)}Body` : pascalCase(schema)),
  service: (path: string[]) => `${pascalCase(path)}Service`,
  params: (op: Operation) => `${pascalCase([...op.resourcePath, op.name])}Params`,
  property: (name: string, owner: string) => {
    const p = pascalCase(name) || 'Value';
    return p === owner || /^\d/.test(p) ? `${p}Value` : p;
  },
  method: (op: Operation) => `${pascalCase(op.name)}Async`,
  argument: (name: string) => {
    const p = pascalCase(name);
    return p.charAt(0).toLowerCase() + p.slice(1);
  },
  errorClass: (type: string) => pascalCase(type, { acronyms: true }),
  accessor: (op: Operation) => `client.${op.resourcePath.map((p) => pascalCase(p)).join('.')}`,
};

export function flattenResources(resources: Resource[]): Resource[] {
  return resources.flatMap((r) => [r, ...flattenResources(r.children)]);
}

const file = (usings: string[], body: string) =>
  [HEADER, '#nullable enable', ...usings.map((u) => `using ${u};`), '', 'namespace Payments', '{', indent(body, '    '), '}', ''].join(
    '\n',
  );

const indent = (text: string, by: string) =>
  text
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n');

const csString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function summary(text: string | undefined, pad = ''): string[] {
  if (!text) return [];
  const lines = xml(text).split('\n');
  return [`${pad}/// <summary>`, ...lines.map((l) => `${pad}/// ${l}`.trimEnd()), `${pad}/// </summary>`];
}

function schemaOf(model: ApiModel, name: string): NamedSchema | undefined {
  return model.schemas.find((s) => s.name === name);
}

/** Resolves refs to non-object schemas and strips `null` from unions: the type and whether null is allowed. */
function resolve(type: TypeRef, model: ApiModel): { type: TypeRef; nullable: boolean } {
  if (type.kind === 'ref') {
    const schema = schemaOf(model, type.name);
    if (schema && schema.type.kind !== 'object') return resolve(schema.type, model);
    return { type, nullable: false };
  }
  if (type.kind === 'union') {
    const others = type.variants.filter((v) => v.kind !== 'null');
    const nullable = others.length < type.variants.length;
    if (others.length === 1) {
      const inner = resolve(others[0] as TypeRef, model);
      return { type: inner.type, nullable: nullable || inner.nullable };
    }
    if (others.every((v) => v.kind === 'string' || (v.kind === 'literal' && typeof v.value === 'string')))
      return { type: { kind: 'string' }, nullable };
    return { type: { kind: 'unknown' }, nullable: true };
  }
  return { type, nullable: false };
}

const VALUE_TYPES = new Set(['long', 'double', 'bool']);

/** The C# type of a response field (without nullability). */
function fieldType(type: TypeRef, model: ApiModel): string {
  switch (type.kind) {
    case 'string':
      return 'string';
    case 'integer':
      return 'long';
    case 'number':
      return 'double';
    case 'boolean':
      return 'bool';
    case 'literal':
      return typeof type.value === 'string' ? 'string' : typeof type.value === 'boolean' ? 'bool' : 'long';
    case 'ref':
      return names.model(type.name);
    case 'array':
      return `IReadOnlyList<${elementType(type.items, model)}>`;
    case 'object':
      return isStringMap(type) ? 'IReadOnlyDictionary<string, string>' : 'IDictionary<string, object?>';
    default:
      return 'object';
  }
}

function elementType(type: TypeRef, model: ApiModel): string {
  const r = resolve(type, model);
  const t = fieldType(r.type, model);
  return t === 'object' ? 'object?' : t;
}

function isStringMap(type: TypeRef): boolean {
  return (
    type.kind === 'object' &&
    type.properties.length === 0 &&
    typeof type.additionalProperties === 'object' &&
    type.additionalProperties.kind === 'string'
  );
}

/** An expression reading `name` from `json` as the field's type. */
function readExpr(type: TypeRef, name: string, nullable: boolean, model: ApiModel): string {
  const n = csString(name);
  const orDefault = (expr: string, fallback: string) => (nullable ? expr : `${expr} ?? ${fallback}`);
  switch (type.kind) {
    case 'string':
      return orDefault(`Json.GetString(json, ${n})`, '""');
    case 'literal':
      if (typeof type.value === 'string') return orDefault(`Json.GetString(json, ${n})`, '""');
      if (typeof type.value === 'boolean') return orDefault(`Json.GetBool(json, ${n})`, 'false');
      return orDefault(`Json.GetLong(json, ${n})`, '0');
    case 'integer':
      return orDefault(`Json.GetLong(json, ${n})`, '0');
    case 'number':
      return orDefault(`Json.GetDouble(json, ${n})`, '0');
    case 'boolean':
      return orDefault(`Json.GetBool(json, ${n})`, 'false');
    case 'ref':
      return `Json.GetObject(json, ${n}, ${names.model(type.name)}.FromJson)`;
    case 'array': {
      const el = elementType(type.items, model);
      return orDefault(`Json.GetList(json, ${n}, ${elementReader(type.items, model)})`, `new List<${el}>()`);
    }
    case 'object':
      return isStringMap(type)
        ? orDefault(`Json.GetStringMap(json, ${n})`, 'new Dictionary<string, string>()')
        : orDefault(`Json.GetMap(json, ${n})`, 'new Dictionary<string, object?>()');
    default:
      return `Json.GetValue(json, ${n})`;
  }
}

function elementReader(type: TypeRef, model: ApiModel): string {
  const r = resolve(type, model).type;
  if (r.kind === 'string') return 'v => v as string ?? ""';
  if (r.kind === 'integer') return 'v => Json.AsLong(v) ?? 0';
  if (r.kind === 'ref') return `v => ${names.model(r.name)}.FromJson(RequestSender.AsObject(v))`;
  return 'v => v';
}

/** src/Models/<Name>.cs: an immutable object read from the decoded JSON. */
export function emitModel(schema: NamedSchema, model: ApiModel): string {
  const cls = names.model(schema.name);
  const properties: Property[] = schema.type.kind === 'object' ? schema.type.properties : [];
  const members: string[] = [];
  const assigns: string[] = [];
  for (const p of properties) {
    const r = resolve(p.type, model);
    const base = fieldType(r.type, model);
    const nullable = r.nullable || !p.required || r.type.kind === 'ref' || base === 'object';
    const name = names.property(p.name, cls);
    members.push(
      ...summary(p.description),
      `public ${base}${nullable ? '?' : ''} ${name} { get; private set; }${!nullable && !VALUE_TYPES.has(base) ? ` = ${defaultFor(base)};` : ''}`,
      '',
    );
    assigns.push(`    ${name} = ${readExpr(r.type, p.name, nullable, model)},`);
  }
  const body = [
    ...summary(schema.description ?? `The \`${schema.name}\` object.`),
    `public sealed class ${cls}`,
    '{',
    indent(
      [
        ...members,
        '/// <summary>Every field as decoded JSON, including ones newer than this SDK.</summary>',
        'public IDictionary<string, object?> Raw { get; private set; } = new Dictionary<string, object?>();',
        '',
        `public static ${cls} FromJson(IDictionary<string, object?> json) => new ${cls}`,
        '{',
        '    Raw = json,',
        ...assigns,
        '};',
      ].join('\n'),
      '    ',
    ),
    '}',
  ].join('\n');
  return file(['System.Collections.Generic'], body);
}

function defaultFor(type: string): string {
  if (type === 'string') return '""';
  if (type.startsWith('IReadOnlyList<')) return `new List<${type.slice('IReadOnlyList<'.length, -1)}>()`;
  if (type === 'IReadOnlyDictionary<string, string>') return 'new Dictionary<string, string>()';
  if (type === 'IDictionary<string, object?>') return 'new Dictionary<string, object?>()';
  return 'default';
}

interface ParamClass {
  name: string;
  doc: string;
  properties: Property[];
}

/** The params class of an operation (body properties, then query parameters) and classes for its inline objects. */
export function emitParams(op: Operation, model: ApiModel): string {
  const body = op.body?.type;
  const properties: Property[] = [
    ...(body?.kind === 'object' ? body.properties : []),
    ...op.queryParams.map((p) => ({
      name: p.name,
      type: p.type,
      required: p.required,
      ...(p.description ? { description: p.description } : {}),
    })),
  ];
  const classes: ParamClass[] = [
    { name: names.params(op), doc: `Parameters of \`${op.id}\` (\`${op.httpMethod.toUpperCase()} ${op.path}\`).`, properties },
  ];
  const blocks: string[] = [];
  for (let i = 0; i < classes.length; i++) {
    const c = classes[i] as ParamClass;
    const members: string[] = [];
    const writes: string[] = [];
    for (const p of c.properties) {
      const name = names.property(p.name, c.name);
      const r = resolve(p.type, model);
      let type: string;
      let write = name;
      if (r.type.kind === 'object' && r.type.properties.length > 0 && !r.type.additionalProperties) {
        type = `${c.name.replace(/Params$/, '')}${pascalCase(p.name)}Params`;
        classes.push({ name: type, doc: `The \`${p.name}\` of ${c.name}.`, properties: r.type.properties });
        write = `${name}.ToDictionary()`;
      } else if (
        isStringMap(r.type) ||
        (r.type.kind === 'object' &&
          typeof r.type.additionalProperties === 'object' &&
          resolve(r.type.additionalProperties, model).type.kind === 'string' &&
          r.type.properties.length === 0)
      ) {
        const valueNullable =
          r.type.kind === 'object' &&
          typeof r.type.additionalProperties === 'object' &&
          resolve(r.type.additionalProperties, model).nullable;
        type = `IDictionary<string, string${valueNullable ? '?' : ''}>`;
      } else if (r.type.kind === 'array') {
        type = `IList<${elementType(r.type.items, model)}>`;
      } else {
        const t = fieldType(r.type, model);
        type = t.startsWith('I') || t === 'object' || /^[A-Z]/.test(t) ? 'object' : t;
      }
      const doc = [
        p.description,
        p.required ? 'Required.' : undefined,
        p.default !== undefined ? `Default: \`${JSON.stringify(p.default)}\`.` : undefined,
        type === 'object' && r.type.kind === 'unknown' ? 'One of several shapes: a value, or a dictionary of its members.' : undefined,
      ]
        .filter(Boolean)
        .join(' ');
      members.push(...summary(doc || undefined), `public ${type}? ${name} { get; set; }`, '');
      writes.push(`    if (${name} != null) result[${csString(p.name)}] = ${write};`);
    }
    blocks.push(
      [
        ...summary(c.doc),
        `public sealed class ${c.name}`,
        '{',
        indent(
          [
            ...members,
            '/// <summary>The parameters as the JSON members the service reads; unset ones are left out.</summary>',
            'public IDictionary<string, object?> ToDictionary()',
            '{',
            '    var result = new Dictionary<string, object?>();',
            ...writes,
            '    return result;',
            '}',
          ].join('\n'),
          '    ',
        ),
        '}',
      ].join('\n'),
    );
  }
  return file(['System.Collections.Generic'], blocks.join('\n\n'));
}

export function hasParams(op: Operation): boolean {
  return op.body !== undefined || op.queryParams.length > 0;
}

export function paramsRequired(op: Operation): boolean {
  const body = op.body?.type;
  if (body?.kind === 'object' && body.properties.some((p) => p.required)) return true;
  return op.queryParams.some((p) => p.required);
}

function modelClass(type: TypeRef, model: ApiModel): string | undefined {
  const r = resolve(type, model).type;
  return r.kind === 'ref' ? names.model(r.name) : undefined;
}

/** src/Services/<Resource>Service.cs: one async method per operation. */
export function emitService(resource: Resource, model: ApiModel): string {
  const cls = names.service(resource.path);
  const children = resource.children.map((c) => `public ${names.service(c.path)} ${pascalCase(c.name)} { get; }`);
  const ctor = [
    `internal ${cls}(RequestSender sender)`,
    '{',
    '    this.sender = sender;',
    ...resource.children.map((c) => `    ${pascalCase(c.name)} = new ${names.service(c.path)}(sender);`),
    '}',
  ];
  const methods = resource.operations.map((op) => emitMethod(op, model));
  const paths = [...new Set(resource.operations.map((op) => op.path.replace(/\/\{\w+\}.*$/, '')))];
  const body = [
    ...summary(`${resource.path.join('.')}${paths.length ? `: \`${paths.join('`, `')}\`` : ''}.`),
    `public sealed class ${cls}`,
    '{',
    indent(
      [
        'private readonly RequestSender sender;',
        '',
        ...(children.length ? [...children, ''] : []),
        ...ctor,
        ...methods.map((m) => `\n${m}`),
      ].join('\n'),
      '    ',
    ),
    '}',
  ].join('\n');
  return file(['System', 'System.Collections.Generic', 'System.Threading', 'System.Threading.Tasks'], body);
}

function emitMethod(op: Operation, model: ApiModel): string {
  const args = op.pathParams.map((p) => `string ${names.argument(p.name)}`);
  const params = hasParams(op) ? names.params(op) : undefined;
  if (params) args.push(paramsRequired(op) ? `${params} parameters` : `${params}? parameters = null`);
  args.push('RequestOptions? options = null', 'CancellationToken cancellationToken = default(CancellationToken)');
  const segments = op.path.split(/\{(\w+)\}/);
  const path = segments
    .map((s, i) => (i % 2 === 1 ? `Uri.EscapeDataString(${names.argument(s)})` : s ? csString(s) : ''))
    .filter(Boolean)
    .join(' + ');
  const method = op.httpMethod.toUpperCase();
  const queryNames = op.queryParams.map((p) => p.name);
  const keys = `new[] { ${queryNames.map(csString).join(', ')} }`;
  const all = params
    ? paramsRequired(op)
      ? 'parameters.ToDictionary()'
      : '(parameters?.ToDictionary() ?? new Dictionary<string, object?>())'
    : '';
  let query = 'null';
  let body = 'null';
  if (op.body && queryNames.length > 0) {
    query = `RequestSender.Pick(all, ${keys})`;
    body = `RequestSender.Omit(all, ${keys})`;
  } else if (op.body) body = 'all';
  else if (queryNames.length > 0) query = 'all';

  const lines: string[] = [];
  if (params) lines.push(`var all = ${all};`);
  let returnType: string;
  const item = op.pagination ? modelClass(op.pagination.item, model) : undefined;
  const cls = modelClass(op.response, model);
  let isAsync = true;
  if (op.pagination && item) {
    returnType = `Task<ListPage<${item}>>`;
    isAsync = false;
    lines.push(
      `return sender.ListAsync(${path}, ${params ? 'all' : 'new Dictionary<string, object?>()'}, options, ${item}.FromJson, item => item.Id, cancellationToken);`,
    );
  } else if (cls) {
    returnType = `Task<${cls}>`;
    lines.push(
      `var json = await sender.RequestAsync("${method}", ${path}, ${query}, ${body}, options, cancellationToken).ConfigureAwait(false);`,
      `return ${cls}.FromJson(RequestSender.AsObject(json));`,
    );
  } else {
    returnType = 'Task<object?>';
    isAsync = false;
    lines.push(`return sender.RequestAsync("${method}", ${path}, ${query}, ${body}, options, cancellationToken);`);
  }
  const access = op.permission.auth === 'none' ? 'needs no key' : `needs \`${op.permission.resource}: ${op.permission.level}\``;
  const doc = [
    ...summary([op.summary ?? op.id, ...(op.description ? [op.description] : []), `\`${method} ${op.path}\`; ${access}.`].join('\n')),
    ...(op.deprecated ? ['[Obsolete]'] : []),
  ];
  return [
    ...doc,
    `public ${isAsync ? 'async ' : ''}${returnType} ${names.method(op)}(${args.join(', ')})`,
    '{',
    ...lines.map((l) => `    ${l}`),
    '}',
  ].join('\n');
}

/** src/PaymentsClient.cs. */
export function emitClient(model: ApiModel): string {
  const roots = model.resources;
  const body = `/// <summary>
/// The client for the payments service. Build one per key and reuse it.
/// </summary>
/// <example><code>
/// var client = new PaymentsClient(Environment.GetEnvironmentVariable("PAYMENTS_SECRET_KEY"), new PaymentsClientOptions { ApiVersion = "${model.latestVersion}" });
/// var customer = await client.Customers.CreateAsync(new CustomersCreateParams { Email = "jenny@example.com" });
/// </code></example>
public sealed class ${names.client}
{
    /// <param name="apiKey">A secret (<c>service_...</c>) or restricted (<c>rk_...</c>) key. Publishable keys are refused.</param>
    /// <param name="options">ApiVersion, Timeout (ms, default 30000), MaxNetworkRetries (default 2), BaseUrl.</param>
    /// <exception cref="ConfigurationError">No key, or a publishable key.</exception>
    public ${names.client}(string apiKey, PaymentsClientOptions? options = null)
    {
        var sender = new RequestSender(apiKey, options ?? new PaymentsClientOptions());
${roots.map((r) => `        ${pascalCase(r.name)} = new ${names.service(r.path)}(sender);`).join('\n')}
    }

${roots.map((r) => `    public ${names.service(r.path)} ${pascalCase(r.name)} { get; }`).join('\n')}
}`;
  return file(['System'], body);
}

/** src/SdkVersion.cs. */
export function emitVersion(model: ApiModel, sdkVersion: string): string {
  return file(
    [],
    `public static class SdkVersion
{
    /// <summary>This SDK's version, sent in <c>User-Agent</c>.</summary>
    public const string Sdk = ${csString(sdkVersion)};

    /// <summary>The API releases <c>ApiVersion</c> accepts, oldest first.</summary>
    public static readonly string[] ApiVersions = { ${model.versions.map(csString).join(', ')} };

    /// <summary>The release this SDK's types describe.</summary>
    public const string LatestApiVersion = ${csString(model.latestVersion)};
}`,
  );
}

/** src/Errors.cs: one class per error type, and the reply → class mapping. */
export function emitErrors(model: ApiModel): string {
  const classes = model.errorTypes.map((t) => {
    const name = names.errorClass(t.type);
    return [
      ...summary(
        [
          `\`${t.type}\`${t.statuses.length ? `, HTTP ${t.statuses.join(', ')}` : ''}.`,
          ...t.codes.map((c) => `- \`${c.code}\` (${c.status}): ${c.description}`),
        ].join('\n'),
      ),
      `public class ${name} : PaymentsError`,
      '{',
      `    public ${name}(string message, string type, string? code = null, string? param = null, string? declineCode = null, int? statusCode = null, string? requestId = null, IReadOnlyDictionary<string, string>? headers = null)`,
      '        : base(message, type, code, param, declineCode, statusCode, requestId, headers) { }',
      '}',
    ].join('\n');
  });
  const fallback = (preferred: string) => {
    const type = model.errorTypes.find((t) => t.type === preferred) ?? model.errorTypes[0];
    if (!type) throw new Error('The document lists no error types (x-error-types).');
    return csString(type.type);
  };
  const factory = `/// <summary>Turns an error reply into its typed error: by <c>error.type</c>, else by status.</summary>
public static class ErrorFactory
{
    // Statuses that only one error type answers with; the fallback when a reply has no error body.
    private static readonly Dictionary<int, string> StatusTypes = new Dictionary<int, string>
    {
${Object.entries(model.statusErrorTypes)
  .map(([status, type]) => `        { ${status}, ${csString(type)} },`)
  .join('\n')}
    };

    public static PaymentsError FromResponse(int statusCode, object? body, IReadOnlyDictionary<string, string> headers)
    {
        var map = body as IDictionary<string, object?>;
        var raw = (map != null ? Json.GetMap(map, "error") : null) ?? new Dictionary<string, object?>();
        var type = Json.GetString(raw, "type");
        string fallback;
        if (!StatusTypes.TryGetValue(statusCode, out fallback)) fallback = statusCode >= 500 ? ${fallback('api_error')} : ${fallback('invalid_request_error')};
        string requestId;
        headers.TryGetValue("request-id", out requestId);
        var message = Json.GetString(raw, "message") ?? $"The service answered {statusCode} without an error body.";
        var code = Json.GetString(raw, "code");
        var param = Json.GetString(raw, "param");
        var decline = Json.GetString(raw, "decline_code");
        var id = Json.GetString(raw, "request_id") ?? requestId;
        switch (type ?? fallback)
        {
${model.errorTypes.map((t) => `            case ${csString(t.type)}: return new ${names.errorClass(t.type)}(message, ${csString(t.type)}, code, param, decline, statusCode, id, headers);`).join('\n')}
            default: return Create(fallback, message, code, param, decline, statusCode, id, headers);
        }
    }

    private static PaymentsError Create(string type, string message, string? code, string? param, string? decline, int statusCode, string? id, IReadOnlyDictionary<string, string> headers)
    {
        switch (type)
        {
${model.errorTypes.map((t) => `            case ${csString(t.type)}: return new ${names.errorClass(t.type)}(message, type, code, param, decline, statusCode, id, headers);`).join('\n')}
            default: return new PaymentsError(message, type, code, param, decline, statusCode, id, headers);
        }
    }
}`;
  return file(['System.Collections.Generic'], [...classes, factory].join('\n\n'));
}

/** src/Webhooks.cs: ConstructEvent, typed as the document's `Event` when it has one. */
export function emitWebhooks(model: ApiModel): string {
  const event = model.schemas.find((s) => s.name === 'Event' && s.type.kind === 'object');
  const type = event ? names.model(event.name) : 'IDictionary<string, object?>';
  const body = event
    ? `${type}.FromJson(VerifyAndParse(payload, header, secret, tolerance))`
    : 'VerifyAndParse(payload, header, secret, tolerance)';
  return file(
    ['System.Collections.Generic'],
    `public static partial class Webhooks
{
    /// <summary>
    /// Checks the signature and age of a delivery and returns the event. Pass the raw body exactly as received.
    /// </summary>
    /// <example><code>var evt = Webhooks.ConstructEvent(body, request.Headers["Service-Signature"], secret);</code></example>
    /// <exception cref="SignatureVerificationError">The signature does not match, or is older than the tolerance.</exception>
    public static ${type} ConstructEvent(string payload, string? header, string secret, int tolerance = DefaultTolerance) =>
        ${body};
}`,
  );
}
