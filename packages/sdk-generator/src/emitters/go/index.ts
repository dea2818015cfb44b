import { readdirSync, readFileSync } from 'node:fs';
import { GENERATED_NOTICE, type Emitter, type GeneratedFile } from '../../emitter.js';
import type { ApiModel, Operation, Resource, TypeRef } from '../../model.js';
import { pascalCase, snakeCase } from '../../naming.js';
import { flattenResources, hoist, type NamedObject, paramProperties, responseObjects } from '../shared/objects.js';
import { emitGoReadme, GO_MODULE } from './readme.js';
import { goDoc, goNames, goStruct, goType } from './types.js';

export const GO_HEADER = `// ${GENERATED_NOTICE}`;
const SDK_VERSION = '1.0.0';
const RUNTIME_DIR = new URL('./runtime/', import.meta.url);

export const goApi = {
  resourceType: (path: string[]) => `${pascalCase(path, { acronyms: true })}Resource`,
  resourceField: (name: string) => pascalCase(name, { acronyms: true }),
  method: (op: Operation) => pascalCase(op.name, { acronyms: true }),
  /** The params object's model name; goNames.type cases it (`ApiKeysListParams` → `APIKeysListParams`). */
  params: (op: Operation) => `${pascalCase([...op.resourcePath, op.name])}Params`,
  errorType: (type: string) => pascalCase(type, { acronyms: true }),
};

/**
 * The Go SDK (sdks/go, package payments): standard library only (net/http), context on every
 * call, typed errors matched with errors.As, an iterator type (Next/Current/Err) for lists.
 */
export const goEmitter: Emitter = {
  language: 'go',
  outDir: 'sdks/go',
  ignore: [],
  emit(model: ApiModel): GeneratedFile[] {
    const objects = new Map<string, NamedObject>(responseObjects(model).map((o) => [o.name, o]));
    const responseNames = [...objects.keys()];
    const params: NamedObject[] = [];
    for (const op of model.operations) {
      if (!takesParams(op)) continue;
      const named: NamedObject = { name: goApi.params(op), properties: [] };
      named.properties = paramProperties(op).map((p) => ({
        ...p,
        type: hoist(p.type, `${goApi.params(op)}${pascalCase(p.name)}`, objects),
      }));
      named.description = `${goNames.type(named.name)} are the parameters of ${op.id} (${op.httpMethod.toUpperCase()} ${op.path}).`;
      params.push(named);
    }
    const records = new Set([...objects.keys(), ...params.map((p) => p.name)]);
    const nestedParams = [...objects.values()].filter((o) => !responseNames.includes(o.name));
    const responses = [...objects.values()].filter((o) => responseNames.includes(o.name));
    const resources = flattenResources(model.resources);
    return [
      { path: 'go.mod', contents: `${GO_HEADER}\nmodule ${GO_MODULE}\n\ngo 1.19\n` },
      { path: 'README.md', contents: emitGoReadme(model, SDK_VERSION) },
      { path: 'version.go', contents: emitVersion(model) },
      { path: 'client.go', contents: emitClient(model) },
      { path: 'errors.go', contents: emitErrors(model) },
      {
        path: 'types.go',
        contents: `${GO_HEADER}\n\npackage payments\n\n// Objects are in the newest API version's shape; an older API version may leave fields out.\n\n${responses.map((o) => goStruct(o, records, o.description ? `${goNames.type(o.name)}: ${o.description}` : undefined)).join('\n\n')}\n`,
      },
      {
        path: 'params.go',
        contents: `${GO_HEADER}\n\npackage payments\n\n// Optional parameters are pointers (payments.String, payments.Int64, payments.Bool) or\n// nil slices and maps; nil ones are left out of the request.\n\n${[...params, ...nestedParams].map((o) => goStruct(o, records)).join('\n\n')}\n`,
      },
      ...resources.map((r) => ({ path: `resource_${snakeCase(r.path)}.go`, contents: emitResource(r, records) })),
      ...readdirSync(RUNTIME_DIR)
        .filter((name) => name.endsWith('.go'))
        .sort()
        .map((name) => ({ path: name, contents: `${GO_HEADER}\n\n${readFileSync(new URL(name, RUNTIME_DIR), 'utf8')}` })),
    ];
  },
};

const takesParams = (op: Operation) => op.body !== undefined || op.queryParams.length > 0;

function responseType(type: TypeRef, records: Set<string>): string {
  return goType(type, records);
}

function emitResource(resource: Resource, records: Set<string>): string {
  const type = goApi.resourceType(resource.path);
  const methods = resource.operations.map((op) => emitMethod(op, type, records));
  const fields: Array<[string, string]> = [
    ['s', '*sender'],
    ...resource.children.map((c): [string, string] => [goApi.resourceField(c.name), `*${goApi.resourceType(c.path)}`]),
  ];
  const width = Math.max(...fields.map(([n]) => n.length));
  const imports = [
    ...(resource.operations.length ? ['"context"'] : []),
    ...(resource.operations.some((op) => op.pathParams.length > 0) ? ['"net/url"'] : []),
  ];
  const importBlock =
    imports.length === 0
      ? ''
      : imports.length === 1
        ? `import ${imports[0]}\n\n`
        : `import (\n${imports.map((i) => `\t${i}`).join('\n')}\n)\n\n`;
  return `${GO_HEADER}

package payments

${importBlock}// ${type} holds the ${resource.path.join('.')} operations: client.${resource.path.map((p) => goApi.resourceField(p)).join('.')}.
type ${type} struct {
${fields.map(([n, t]) => `\t${n.padEnd(width)} ${t}`).join('\n')}
}

func new${type}(s *sender) *${type} {
	return &${type}{s: s${resource.children.map((c) => `, ${goApi.resourceField(c.name)}: new${goApi.resourceType(c.path)}(s)`).join('')}}
}
${methods.join('')}`;
}

function emitMethod(op: Operation, recv: string, records: Set<string>): string {
  const args = ['ctx context.Context', ...op.pathParams.map((p) => `${p.name === 'type' ? 'typ' : p.name} string`)];
  if (takesParams(op)) args.push(`params *${goNames.type(goApi.params(op))}`);
  args.push('opts ...Option');
  const path = op.path
    .split(/(\{\w+\})/)
    .filter(Boolean)
    .map((part) => (part.startsWith('{') ? `url.PathEscape(${part.slice(1, -1)})` : JSON.stringify(part)))
    .join('+');
  const method = op.httpMethod.toUpperCase();
  const name = goApi.method(op);
  const access = op.permission.auth === 'none' ? 'needs no key' : `needs ${op.permission.resource}: ${op.permission.level}`;
  const doc = goDoc(
    [
      `${name}: ${op.summary ?? op.id}.`.replace(/\.\.$/, '.'),
      ...(op.description ? ['', op.description] : []),
      '',
      `${method} ${op.path}; ${access}.`,
    ].join('\n'),
    '',
  );
  const queryNames = op.queryParams.map((p) => JSON.stringify(p.name));
  const hasParams = takesParams(op);
  const prepare: string[] = [];
  let query = 'nil';
  let body = 'nil';
  if (hasParams && op.httpMethod !== 'get' && op.httpMethod !== 'delete' && queryNames.length > 0) {
    prepare.push(
      '\tq, b, err := splitParams(params, ' + `[]string{${queryNames.join(', ')}})`,
      '\tif err != nil {',
      '\t\treturn nil, err',
      '\t}',
    );
    query = 'q';
    body = 'b';
  } else if (hasParams && (op.httpMethod === 'get' || op.httpMethod === 'delete')) {
    prepare.push('\tq, err := toMap(params)', '\tif err != nil {', '\t\treturn nil, err', '\t}');
    query = 'q';
  } else if (hasParams) {
    body = 'params';
  }
  const out: string[] = [];
  if (op.pagination) {
    const item = goType(op.pagination.item, records);
    out.push(
      ...doc,
      `func (r *${recv}) ${name}(${args.join(', ')}) (*List[${item}], error) {`,
      ...prepare,
      `\tout := new(List[${item}])`,
      `\tif err := r.s.call(ctx, "${method}", ${path}, ${query}, nil, out, opts); err != nil {`,
      '\t\treturn nil, err',
      '\t}',
      '\treturn out, nil',
      '}',
      '',
      `// ${name}AutoPaging walks every item of ${op.id} across pages: for it.Next() { it.Current() }, then it.Err().`,
      `func (r *${recv}) ${name}AutoPaging(${args.join(', ')}) *Iter[${item}] {`,
      `\treturn newIter(ctx, params, func(x ${item}) string { return x.ID }, func(ctx context.Context, q map[string]interface{}) (*List[${item}], error) {`,
      `\t\tout := new(List[${item}])`,
      `\t\treturn out, r.s.call(ctx, "${method}", ${path}, q, nil, out, opts)`,
      '\t})',
      '}',
    );
  } else {
    const result = responseType(op.response, records);
    const isStruct = op.response.kind === 'ref' && records.has(op.response.name);
    const retType = isStruct ? `*${result}` : result;
    out.push(
      ...doc,
      `func (r *${recv}) ${name}(${args.join(', ')}) (${retType}, error) {`,
      ...prepare,
      isStruct ? `\tout := new(${result})` : `\tvar out ${result}`,
      `\tif err := r.s.call(ctx, "${method}", ${path}, ${query}, ${body === 'params' ? 'params' : body}, ${isStruct ? 'out' : '&out'}, opts); err != nil {`,
      `\t\treturn ${isStruct ? 'nil' : 'out'}, err`,
      '\t}',
      '\treturn out, nil',
      '}',
    );
  }
  return `\n${out.join('\n')}\n`;
}

function emitErrors(model: ApiModel): string {
  const types = model.errorTypes.map((t) => {
    const name = goApi.errorType(t.type);
    const doc = goDoc(
      [
        `${name} is error.type "${t.type}"${t.statuses.length ? `, HTTP ${t.statuses.join(', ')}` : ''}. Codes:`,
        ...t.codes.map((c) => `  - ${c.code} (${c.status}): ${c.description}`),
      ].join('\n'),
      '',
    );
    return [
      ...doc,
      `type ${name} Error`,
      '',
      `func (e *${name}) Error() string { return (*Error)(e).Error() }`,
      `func (e *${name}) Unwrap() error { return (*Error)(e) }`,
    ].join('\n');
  });
  const fallback = (preferred: string) => (model.errorTypes.find((t) => t.type === preferred) ?? model.errorTypes[0])?.type ?? preferred;
  const statusEntries = Object.entries(model.statusErrorTypes);
  const w = Math.max(...statusEntries.map(([s]) => s.length + 1));
  const codes = model.errorCodes;
  const cw = Math.max(...codes.map((c) => JSON.stringify(c.code).length + 1));
  return `${GO_HEADER}

package payments

import "net/http"

${types.join('\n\n')}

// ErrorCodes maps every error.code the service answers with to its error.type.
var ErrorCodes = map[string]string{
${codes.map((c) => `\t${`${JSON.stringify(c.code)}:`.padEnd(cw)} ${JSON.stringify(c.type)},`).join('\n')}
}

// statusTypes are statuses that only one error type answers with: the fallback when a reply has no error body.
var statusTypes = map[int]string{
${statusEntries.map(([s, t]) => `\t${`${s}:`.padEnd(w)} ${JSON.stringify(t)},`).join('\n')}
}

// errorFromResponse is the typed error for an error reply: by error.type, else by status.
func errorFromResponse(status int, body []byte, header http.Header) error {
	e := parseError(status, body, header)
	if typed := typedError(e); typed != nil {
		return typed
	}
	if t, ok := statusTypes[status]; ok {
		e.Type = t
	} else if status >= 500 {
		e.Type = ${JSON.stringify(fallback('api_error'))}
	} else {
		e.Type = ${JSON.stringify(fallback('invalid_request_error'))}
	}
	return typedError(e)
}

func typedError(e *Error) error {
	switch e.Type {
${model.errorTypes.map((t) => `\tcase ${JSON.stringify(t.type)}:\n\t\treturn (*${goApi.errorType(t.type)})(e)`).join('\n')}
	}
	return nil
}
`;
}

function emitClient(model: ApiModel): string {
  const roots = model.resources;
  const w = Math.max(...roots.map((r) => goApi.resourceField(r.name).length));
  const hasEvent = model.schemas.some((s) => s.name === 'Event');
  return `${GO_HEADER}

// Package payments is the Go SDK for the payments service. Build one Client per key and reuse it:
//
//	client, err := payments.NewClient(os.Getenv("PAYMENTS_SECRET_KEY"), payments.WithAPIVersion("${model.latestVersion}"))
package payments

import (
	"encoding/json"
	"time"
)

// Client is the client for the payments service: one field per resource.
type Client struct {
${roots.map((r) => `\t${goApi.resourceField(r.name).padEnd(w)} *${goApi.resourceType(r.path)}`).join('\n')}
}

// NewClient builds a client for a secret (service_...) or restricted (rk_...) key; a publishable
// key (pk_...) is refused with a *ConfigurationError. Options: WithAPIVersion, WithTimeout
// (default 30 s), WithMaxNetworkRetries (default 2), WithBaseURL, WithHTTPClient.
func NewClient(apiKey string, opts ...Option) (*Client, error) {
	s, err := newSender(apiKey, opts)
	if err != nil {
		return nil, err
	}
	return &Client{
${roots.map((r) => `\t\t${`${goApi.resourceField(r.name)}:`.padEnd(w + 1)} new${goApi.resourceType(r.path)}(s),`).join('\n')}
	}, nil
}

// ConstructEvent verifies a webhook delivery (see VerifySignature) and returns the event. Pass the
// raw body exactly as received and the Service-Signature header; tolerance 0 means DefaultTolerance.
func ConstructEvent(payload []byte, header string, secret string, tolerance time.Duration) (*${hasEvent ? 'Event' : 'map[string]interface{}'}, error) {
	if tolerance == 0 {
		tolerance = DefaultTolerance
	}
	if err := VerifySignature(payload, header, secret, tolerance); err != nil {
		return nil, err
	}
	event := new(${hasEvent ? 'Event' : 'map[string]interface{}'})
	if err := json.Unmarshal(payload, event); err != nil {
		return nil, &SignatureVerificationError{Type: "signature_verification_error", Message: "The webhook payload is not JSON.", Cause: err}
	}
	return event, nil
}

// splitParams sends an operation's query parameters in the URL and the rest in the body.
func splitParams(params interface{}, queryNames []string) (map[string]interface{}, map[string]interface{}, error) {
	all, err := toMap(params)
	if err != nil {
		return nil, nil, err
	}
	query := map[string]interface{}{}
	for _, name := range queryNames {
		if v, ok := all[name]; ok {
			query[name] = v
			delete(all, name)
		}
	}
	return query, all, nil
}
`;
}

function emitVersion(model: ApiModel): string {
  return `${GO_HEADER}

package payments

// SDKVersion is this SDK's version, sent in User-Agent.
const SDKVersion = "${SDK_VERSION}"

// LatestAPIVersion is the release this SDK's types describe.
const LatestAPIVersion = "${model.latestVersion}"

// APIVersions are the API releases WithAPIVersion accepts, oldest first.
var APIVersions = []string{${model.versions.map((v) => JSON.stringify(v)).join(', ')}}
`;
}
