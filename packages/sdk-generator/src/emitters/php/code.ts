import { GENERATED_NOTICE } from '../../emitter.js';
import type { ApiModel, NamedSchema, Operation, Property, Resource, TypeRef } from '../../model.js';
import { modelClass, modelSchemas, names, objectName } from './names.js';
import { docBlock, docType, phpString, shape } from './type-expr.js';

/** The first line of every generated PHP file: the open tag and the notice, so `declare` can follow. */
export const HEADER = `<?php // ${GENERATED_NOTICE}`;

const file = (namespace: string, uses: string[], body: string) =>
  [
    HEADER,
    '',
    'declare(strict_types=1);',
    '',
    `namespace ${namespace};`,
    '',
    ...(uses.length ? [...[...new Set(uses)].sort().map((u) => `use ${u};`), ''] : []),
    body,
    '',
  ].join('\n');

/** src/Model/<Name>.php: a read-only object with its fields documented for IDEs and static analysis. */
export function emitModel(schema: NamedSchema, model: ApiModel): string {
  const type = schema.type;
  const properties: Property[] = type.kind === 'object' ? type.properties : [];
  const nested: string[] = [];
  const nestedLists: string[] = [];
  for (const p of properties) {
    const single = modelClass(p.type, model);
    if (single) nested.push(`        ${phpString(p.name)} => ${single}::class,`);
    const item = listItem(p.type);
    const listClass = item && modelClass(item, model);
    if (listClass) nestedLists.push(`        ${phpString(p.name)} => ${listClass}::class,`);
  }
  const doc = docBlock(
    [
      ...(schema.description ? [...schema.description.split('\n'), ''] : []),
      ...properties.map(
        (p) =>
          `@property-read ${docType(p.type, model)}${p.required ? '' : '|null'} $${p.name}${p.description ? ` ${p.description.split('\n')[0]}` : ''}`,
      ),
    ],
    '',
  );
  const consts = [
    nested.length ? ['    protected const NESTED = [', ...nested, '    ];'].join('\n') : undefined,
    nestedLists.length ? ['    protected const NESTED_LISTS = [', ...nestedLists, '    ];'].join('\n') : undefined,
  ].filter(Boolean);
  const object = objectName(schema);
  const members = [object ? `    public const OBJECT_NAME = ${phpString(object)};` : undefined, ...consts].filter(Boolean);
  return file(
    `${names.namespace}\\Model`,
    [`${names.namespace}\\PaymentsObject`],
    [...doc, `class ${names.model(schema.name)} extends PaymentsObject`, '{', members.join('\n\n'), '}']
      .join('\n')
      .replace('{\n\n}', '{\n}'),
  );
}

function listItem(type: TypeRef): TypeRef | undefined {
  if (type.kind === 'array') return type.items;
  if (type.kind === 'union') {
    const arrays = type.variants.filter((v) => v.kind === 'array');
    return arrays.length === 1 && arrays[0]?.kind === 'array' ? arrays[0].items : undefined;
  }
  return undefined;
}

/** The params of an operation as one array shape: body properties and query parameters. */
function paramsShape(op: Operation, model: ApiModel): string {
  const body = op.body?.type;
  const query: Property[] = op.queryParams.map((p) => ({ name: p.name, type: p.type, required: p.required }));
  if (body && body.kind !== 'object') return docType(body, model);
  return shape([...(body?.kind === 'object' ? body.properties : []), ...query], model);
}

export function hasParams(op: Operation): boolean {
  return op.body !== undefined || op.queryParams.length > 0;
}

export function paramsRequired(op: Operation): boolean {
  const body = op.body?.type;
  if (body?.kind === 'object' && body.properties.some((p) => p.required)) return true;
  if (body && body.kind !== 'object' && op.body?.required) return true;
  return op.queryParams.some((p) => p.required);
}

/** src/Service/<Resource>Service.php: one method per operation, a property per sub-resource. */
export function emitService(resource: Resource, model: ApiModel): string {
  const uses = [`${names.namespace}\\RequestOptions`, `${names.namespace}\\RequestSender`];
  const children = resource.children.map((c) => `    public readonly ${names.service(c.path)} $${names.property(c.name)};`);
  const ctor = [
    '    public function __construct(private readonly RequestSender $sender)',
    '    {',
    ...resource.children.map((c) => `        $this->${names.property(c.name)} = new ${names.service(c.path)}($sender);`),
    '    }',
  ];
  const methods = resource.operations.map((op) => emitMethod(op, model, uses));
  const paths = [...new Set(resource.operations.map((op) => op.path.replace(/\/\{\w+\}.*$/, '')))];
  const body = [
    `/** ${resource.path.join('.')}${paths.length ? `: \`${paths.join('`, `')}\`` : ''}. */`,
    `final class ${names.service(resource.path)}`,
    '{',
    [...(children.length ? [children.join('\n'), ''] : []), ctor.join('\n'), ...methods.map((m) => `\n${m}`)].join('\n'),
    '}',
  ].join('\n');
  return file(`${names.namespace}\\Service`, uses, body);
}

function emitMethod(op: Operation, model: ApiModel, uses: string[]): string {
  const args = op.pathParams.map((p) => `string ${names.variable(p.name)}`);
  const docParams = op.pathParams.map((p) => `@param string ${names.variable(p.name)}${p.description ? ` ${p.description}` : ''}`);
  if (hasParams(op)) {
    args.push(paramsRequired(op) ? 'array $params' : 'array $params = []');
    docParams.push(`@param ${paramsShape(op, model)} $params`);
  }
  args.push('?RequestOptions $options = null');

  const segments = op.path.split(/\{(\w+)\}/);
  const pathExpr = segments
    .map((s, i) => (i % 2 === 1 ? `rawurlencode(${names.variable(s)})` : s ? phpString(s) : ''))
    .filter(Boolean)
    .join(' . ');
  const method = op.httpMethod.toUpperCase();
  const queryNames = op.queryParams.map((p) => p.name);
  const keys = `[${queryNames.map(phpString).join(', ')}]`;
  let query = 'null';
  let body = 'null';
  if (op.body && queryNames.length > 0) {
    query = `array_intersect_key($params, array_flip(${keys}))`;
    body = `array_diff_key($params, array_flip(${keys}))`;
  } else if (op.body) body = '$params';
  else if (queryNames.length > 0) query = '$params';

  let returnType: string;
  let docReturn: string;
  let statement: string;
  if (op.pagination) {
    const item = modelClass(op.pagination.item, model);
    uses.push(`${names.namespace}\\Collection`);
    if (item) uses.push(`${names.namespace}\\Model\\${item}`);
    const itemClass = item ? `${item}::class` : 'PaymentsObject::class';
    if (!item) uses.push(`${names.namespace}\\PaymentsObject`);
    returnType = 'Collection';
    docReturn = `@return Collection<${item ?? 'PaymentsObject'}>`;
    statement = `return Collection::fetch(fn (array $page): mixed => $this->sender->request('${method}', ${pathExpr}, $page, null, $options), ${itemClass}, $params);`;
  } else {
    const cls = modelClass(op.response, model);
    const call = `$this->sender->request('${method}', ${pathExpr}, ${query}, ${body}, $options)`;
    if (cls) {
      uses.push(`${names.namespace}\\Model\\${cls}`);
      returnType = cls;
      docReturn = `@return ${cls}`;
      statement = `return ${cls}::constructFrom(${call});`;
    } else {
      returnType = 'mixed';
      docReturn = `@return ${docType(op.response, model)}`;
      statement = `return ${call};`;
    }
  }
  const access = op.permission.auth === 'none' ? 'needs no key' : `needs \`${op.permission.resource}: ${op.permission.level}\``;
  const doc = docBlock(
    [
      op.summary ?? op.id,
      ...(op.description ? ['', ...op.description.split('\n')] : []),
      '',
      `\`${method} ${op.path}\`; ${access}.`,
      '',
      ...docParams,
      docReturn,
      '@throws \\Payments\\Exception\\PaymentsError',
      ...(op.deprecated ? ['@deprecated'] : []),
    ],
    '    ',
  );
  return [
    ...doc,
    `    public function ${names.method(op)}(${args.join(', ')}): ${returnType}`,
    '    {',
    `        ${statement}`,
    '    }',
  ].join('\n');
}

/** src/PaymentsClient.php. */
export function emitClient(model: ApiModel): string {
  const roots = model.resources;
  const uses = roots.map((r) => `${names.namespace}\\Service\\${names.service(r.path)}`);
  const body = `/**
 * The client for the payments service. Build one per key and reuse it.
 *
 * \`\`\`php
 * $client = new \\Payments\\${names.client}(getenv('PAYMENTS_SECRET_KEY'), apiVersion: '${model.latestVersion}');
 * $customer = $client->customers->create(['email' => 'jenny@example.com']);
 * \`\`\`
 */
final class ${names.client}
{
    public const VERSION = Version::SDK;

${roots.map((r) => `    public readonly ${names.service(r.path)} $${names.property(r.name)};`).join('\n')}

    /**
     * @param string $apiKey A secret (\`service_...\`) or restricted (\`rk_...\`) key. Publishable keys are refused.
     * @param string|null $apiVersion Pins the API release (\`YYYY-MM-DD\`), sent as \`Service-Version\`; null: the account's default.
     * @param int $timeout Milliseconds each attempt may take (default 30000).
     * @param int $maxNetworkRetries Retries of connection errors, 409, 429 and 5xx (default 2).
     * @param string|null $baseUrl Where the service listens, without \`/v1\` (default \`http://127.0.0.1:4242\`).
     * @throws \\Payments\\Exception\\ConfigurationError
     */
    public function __construct(
        #[\\SensitiveParameter] string $apiKey,
        ?string $apiVersion = null,
        int $timeout = RequestSender::DEFAULT_TIMEOUT_MS,
        int $maxNetworkRetries = RequestSender::DEFAULT_MAX_NETWORK_RETRIES,
        ?string $baseUrl = null,
    ) {
        $sender = new RequestSender($apiKey, $apiVersion, $timeout, $maxNetworkRetries, $baseUrl);
${roots.map((r) => `        $this->${names.property(r.name)} = new ${names.service(r.path)}($sender);`).join('\n')}
    }
}`;
  return file(names.namespace, uses, body);
}

/** src/Version.php. */
export function emitVersion(model: ApiModel, sdkVersion: string): string {
  return file(
    names.namespace,
    [],
    `final class Version
{
    /** This SDK's version, sent in \`User-Agent\`. */
    public const SDK = ${phpString(sdkVersion)};

    /** The API releases \`apiVersion\` accepts, oldest first. */
    public const API_VERSIONS = [${model.versions.map(phpString).join(', ')}];

    /** The release this SDK's documented fields describe. */
    public const LATEST_API_VERSION = ${phpString(model.latestVersion)};
}`,
  );
}

/** src/ObjectTypes.php: \`object\` → class, for payloads that arrive without an operation (webhooks). */
export function emitObjectTypes(model: ApiModel): string {
  const seen = new Set<string>();
  const rows: string[] = [];
  for (const schema of modelSchemas(model)) {
    const object = objectName(schema);
    if (!object || object === 'list' || seen.has(object) || /^(Deleted|New)/.test(schema.name)) continue;
    seen.add(object);
    rows.push(`        ${phpString(object)} => Model\\${names.model(schema.name)}::class,`);
  }
  return file(
    names.namespace,
    [],
    `final class ObjectTypes
{
    /** @var array<string, class-string<PaymentsObject>> */
    public const CLASSES = [
${rows.join('\n')}
    ];

    /** @param array<string, mixed> $values A decoded object; its \`object\` field picks the class. */
    public static function construct(array $values): PaymentsObject
    {
        $class = self::CLASSES[$values['object'] ?? ''] ?? PaymentsObject::class;
        return $class::constructFrom($values);
    }
}`,
  );
}

/** src/Exception/<Type>.php for each error type, and ErrorFactory.php (reply → class). */
export function emitErrors(model: ApiModel): { path: string; contents: string }[] {
  const ns = `${names.namespace}\\Exception`;
  const classes = model.errorTypes.map((t) => {
    const doc = docBlock(
      [
        `\`${t.type}\`${t.statuses.length ? `, HTTP ${t.statuses.join(', ')}` : ''}.`,
        '',
        ...t.codes.map((c) => `- \`${c.code}\` (${c.status}): ${c.description}`),
      ],
      '',
    );
    const name = names.errorClass(t.type);
    return {
      path: `src/Exception/${name}.php`,
      contents: file(ns, [], [...doc, `class ${name} extends PaymentsError`, '{', '}'].join('\n')),
    };
  });
  const fallback = (preferred: string) => {
    const type = model.errorTypes.find((t) => t.type === preferred) ?? model.errorTypes[0];
    if (!type) throw new Error('The document lists no error types (x-error-types).');
    return phpString(type.type);
  };
  const factory = `/** Turns an error reply into its typed error: by \`error.type\`, else by status. */
final class ErrorFactory
{
    /** @var array<string, class-string<PaymentsError>> \`error.type\` → class. */
    public const CLASSES = [
${model.errorTypes.map((t) => `        ${phpString(t.type)} => ${names.errorClass(t.type)}::class,`).join('\n')}
    ];

    /** Statuses that only one error type answers with; the fallback when a reply has no error body. */
    private const STATUS_TYPES = [
${Object.entries(model.statusErrorTypes)
  .map(([status, type]) => `        ${status} => ${phpString(type)},`)
  .join('\n')}
    ];

    /** @param array<string, string> $headers */
    public static function fromResponse(int $statusCode, mixed $body, array $headers): PaymentsError
    {
        $raw = is_array($body) && is_array($body['error'] ?? null) ? $body['error'] : [];
        $type = is_string($raw['type'] ?? null) && isset(self::CLASSES[$raw['type']])
            ? $raw['type']
            : (self::STATUS_TYPES[$statusCode] ?? ($statusCode >= 500 ? ${fallback('api_error')} : ${fallback('invalid_request_error')}));
        $class = self::CLASSES[$type];
        $string = static fn (string $name): ?string => is_string($raw[$name] ?? null) ? $raw[$name] : null;
        return new $class(
            $string('message') ?? sprintf('The service answered %d without an error body.', $statusCode),
            $type,
            $string('code'),
            $string('param'),
            $string('decline_code'),
            $statusCode,
            $string('request_id') ?? ($headers['request-id'] ?? null),
            $headers,
            $raw,
        );
    }
}`;
  return [...classes, { path: 'src/Exception/ErrorFactory.php', contents: file(ns, [], factory) }];
}

/** autoload.php: a PSR-4 autoloader for projects without Composer (and the SDK's own tests). */
export function emitAutoload(): string {
  return `${HEADER}

declare(strict_types=1);

// With Composer, its autoloader reads composer.json instead; this file is for plain \`require\`.
spl_autoload_register(static function (string $class): void {
    $prefix = '${names.namespace}\\\\';
    if (!str_starts_with($class, $prefix)) {
        return;
    }
    $path = __DIR__ . '/src/' . str_replace('\\\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($path)) {
        require $path;
    }
});
`;
}
