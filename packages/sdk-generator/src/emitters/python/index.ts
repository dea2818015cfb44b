import { readdirSync, readFileSync } from 'node:fs';
import { GENERATED_NOTICE, type Emitter, type GeneratedFile } from '../../emitter.js';
import type { ApiModel, Operation, Resource, TypeRef } from '../../model.js';
import { pascalCase, snakeCase } from '../../naming.js';
import { flattenResources, hoist, type NamedObject, paramProperties, responseObjects, unwrapNullable } from '../shared/objects.js';
import { emitPythonReadme, pythonExample } from './readme.js';
import { docstring, pyName, pyString, pyType, typedDict } from './types.js';

export const PY_HEADER = `# ${GENERATED_NOTICE}`;
const PACKAGE = 'payments';
const SDK_VERSION = '1.0.0';
const RUNTIME_DIR = new URL('./runtime/', import.meta.url);

export const pyNames = {
  module: (path: string[]) => snakeCase(path),
  resourceClass: (path: string[]) => pascalCase(path),
  attribute: (name: string) => snakeCase(name),
  method: (op: Operation) => pyName(snakeCase(op.name)),
  errorClass: (type: string) => pascalCase(type, { acronyms: true }),
  nested: (op: Operation) => `${pascalCase([...op.resourcePath, op.name])}Params`,
};

/**
 * The Python SDK (sdks/python, package `payments`): standard library only (urllib), TypedDicts
 * for objects, keyword arguments for parameters, an iterator over list pages.
 */
export const pythonEmitter: Emitter = {
  language: 'python',
  outDir: 'sdks/python',
  ignore: ['build', 'dist', '__pycache__', 'payments/__pycache__', 'payments/resources/__pycache__', 'payments.egg-info'],
  emit(model: ApiModel): GeneratedFile[] {
    const objects = new Map<string, NamedObject>(responseObjects(model).map((o) => [o.name, o]));
    const resources = flattenResources(model.resources);
    const ops = new Map(model.operations.map((op) => [op.id, paramsOf(op, objects)]));
    const file = (path: string, contents: string) => ({ path: `${PACKAGE}/${path}`, contents });
    return [
      { path: 'pyproject.toml', contents: pyproject(model) },
      { path: 'README.md', contents: emitPythonReadme(model, SDK_VERSION) },
      file('py.typed', `${PY_HEADER}\n`),
      file('__init__.py', emitInit(model)),
      file('_version.py', emitVersion(model)),
      file('_client.py', emitClient(model)),
      file('errors.py', emitErrors(model)),
      file('types.py', emitTypes([...objects.values()])),
      file(
        'resources/__init__.py',
        `${PY_HEADER}\n${resources.map((r) => `from .${pyNames.module(r.path)} import ${pyNames.resourceClass(r.path)}`).join('\n')}\n\n__all__ = [${resources.map((r) => pyString(pyNames.resourceClass(r.path))).join(', ')}]\n`,
      ),
      ...resources.map((r) => file(`resources/${pyNames.module(r.path)}.py`, emitResource(r, ops))),
      ...readdirSync(RUNTIME_DIR)
        .filter((name) => name.endsWith('.py'))
        .sort()
        .map((name) => file(name, `${PY_HEADER}\n${readFileSync(new URL(name, RUNTIME_DIR), 'utf8')}`)),
    ];
  },
};

interface PyParam {
  wire: string;
  name: string;
  type: TypeRef;
  required: boolean;
  nullable: boolean;
  inQuery: boolean;
  description?: string;
}

/** An operation's keyword arguments, nested objects hoisted into `types.py`. */
function paramsOf(op: Operation, objects: Map<string, NamedObject>): PyParam[] {
  const queryNames = new Set(op.queryParams.map((p) => p.name));
  return paramProperties(op).map((p) => {
    const type = hoist(p.type, `${pyNames.nested(op)}${pascalCase(p.name)}`, objects);
    return {
      wire: p.name,
      name: pyName(p.name),
      type,
      required: p.required,
      nullable: unwrapNullable(type).nullable,
      inQuery: queryNames.has(p.name),
      ...(p.description ? { description: p.description } : {}),
    };
  });
}

function emitResource(resource: Resource, ops: Map<string, PyParam[]>): string {
  const refs = new Set<string>();
  const collect = (t: TypeRef): void => {
    if (t.kind === 'ref') refs.add(t.name);
    else if (t.kind === 'array') collect(t.items);
    else if (t.kind === 'union') t.variants.forEach(collect);
    else if (t.kind === 'object' && t.additionalProperties && t.additionalProperties !== 'any') collect(t.additionalProperties);
  };
  for (const op of resource.operations) {
    collect(op.pagination?.item ?? op.response);
    for (const p of ops.get(op.id) ?? []) collect(p.type);
  }
  const children = resource.children.map((c) => `from .${pyNames.module(c.path)} import ${pyNames.resourceClass(c.path)}`);
  const methods = resource.operations.map((op) => emitMethod(op, ops.get(op.id) ?? []));
  const childAttrs = resource.children.map((c) => `        self.${pyNames.attribute(c.name)} = ${pyNames.resourceClass(c.path)}(sender)`);
  return [
    PY_HEADER,
    'from __future__ import annotations',
    '',
    'from typing import Any, Dict, List, Literal, Optional, Union  # noqa: F401',
    'from urllib.parse import quote  # noqa: F401',
    '',
    'from .._http import NOT_GIVEN, RequestOptions, RequestSender, strip_not_given  # noqa: F401',
    'from .._pagination import ListObject  # noqa: F401',
    ...(refs.size ? [`from ..types import ${[...refs].sort().join(', ')}`] : []),
    ...children,
    '',
    '',
    `class ${pyNames.resourceClass(resource.path)}:`,
    ...docstring(`\`client.${resource.path.map(snakeCase).join('.')}\`: ${resource.path.join('.')} operations.`, '    '),
    '',
    '    def __init__(self, sender: RequestSender) -> None:',
    '        self._sender = sender',
    ...childAttrs,
    ...methods.flatMap((m) => ['', m]),
    '',
  ].join('\n');
}

function emitMethod(op: Operation, params: PyParam[]): string {
  const args = ['self', ...op.pathParams.map((p) => `${pyName(p.name)}: str`)];
  args.push('*');
  for (const p of params.filter((x) => x.required)) args.push(`${p.name}: ${pyType(p.type)}`);
  for (const p of params.filter((x) => !x.required)) args.push(`${p.name}: ${pyType(p.type)} = NOT_GIVEN`);
  args.push('request_options: Optional[RequestOptions] = None');
  const returns = op.pagination ? `ListObject[${pyType(op.pagination.item)}]` : pyType(op.response);

  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => `{quote(${pyName(name)}, safe='')}`);
  const pathExpr = op.pathParams.length ? `f"${path}"` : pyString(op.path);
  const method = op.httpMethod.toUpperCase();
  const dict = (list: PyParam[]) =>
    list.length <= 2
      ? `strip_not_given({${list.map((p) => `${pyString(p.wire)}: ${p.name}`).join(', ')}})`
      : `strip_not_given(\n            {\n${list.map((p) => `                ${pyString(p.wire)}: ${p.name},`).join('\n')}\n            }\n        )`;
  const query = params.filter((p) => p.inQuery);
  const body = params.filter((p) => !p.inQuery);
  const lines: string[] = [];
  let call: string;
  if (op.pagination) {
    lines.push(`        params = ${dict(query)}`);
    lines.push(`        path = ${pathExpr}`);
    lines.push('        fetch = lambda page: self._sender.request("GET", path, query=page, options=request_options)  # noqa: E731');
    call = 'ListObject(fetch(params), fetch, params)';
  } else {
    const parts = [pyString(method), pathExpr];
    if (query.length) {
      lines.push(`        query = ${dict(query)}`);
      parts.push('query=query');
    }
    if (op.body) {
      lines.push(`        body = ${dict(body)}`);
      parts.push('body=body');
    }
    parts.push('options=request_options');
    call = `self._sender.request(${parts.join(', ')})`;
  }
  const access = op.permission.auth === 'none' ? 'needs no key' : `needs \`${op.permission.resource}: ${op.permission.level}\``;
  const doc = [
    `${op.summary ?? op.id}.`.replace(/\.\.$/, '.'),
    ...(op.description ? ['', op.description] : []),
    '',
    `\`${method} ${op.path}\`; ${access}.${op.deprecated ? ' Deprecated.' : ''}`,
    ...(params.some((p) => p.description)
      ? ['', 'Args:', ...params.filter((p) => p.description).map((p) => `    ${p.name}: ${(p.description as string).replace(/\n/g, ' ')}`)]
      : []),
    '',
    'Example::',
    '',
    ...pythonExample(op)
      .split('\n')
      .map((l) => `    ${l}`),
  ].join('\n');
  const oneLine = `    def ${pyNames.method(op)}(${args.join(', ')}) -> ${returns}:`;
  const signature =
    oneLine.length <= 110
      ? oneLine
      : `    def ${pyNames.method(op)}(\n${args.map((a) => `        ${a},`).join('\n')}\n    ) -> ${returns}:`;
  return [signature, ...docstring(doc, '        '), ...lines, `        return ${call}`].join('\n');
}

function emitTypes(objects: NamedObject[]): string {
  return `${PY_HEADER}
"""Objects as the service returns them (plain dicts), in the newest API version's shape; an older
\`api_version\` may leave fields out."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Literal, Optional, TypedDict, Union  # noqa: F401

if TYPE_CHECKING:
    from typing_extensions import NotRequired


${objects.map(typedDict).join('\n\n\n')}
`;
}

function emitErrors(model: ApiModel): string {
  const classes = model.errorTypes.map((t) => {
    const codes = t.codes.map((c) => `- \`\`${c.code}\`\` (${c.status}): ${c.description}`);
    const doc = [`\`\`${t.type}\`\`${t.statuses.length ? `, HTTP ${t.statuses.join(', ')}` : ''}.`, '', ...codes].join('\n');
    return [`class ${pyNames.errorClass(t.type)}(PaymentsError):`, ...docstring(doc, '    ')].join('\n');
  });
  const fallback = (preferred: string) => {
    const type = model.errorTypes.find((t) => t.type === preferred) ?? model.errorTypes[0];
    if (!type) throw new Error('The document lists no error types (x-error-types).');
    return pyString(type.type);
  };
  return `${PY_HEADER}
"""One class per \`\`error.type\`\`, all under PaymentsError."""
from __future__ import annotations

from typing import Any, Dict, Mapping, Type

from ._error_base import ConfigurationError, ConnectionError, PaymentsError, SignatureVerificationError

__all__ = [
    "PaymentsError",
    "ConnectionError",
    "ConfigurationError",
    "SignatureVerificationError",
${model.errorTypes.map((t) => `    ${pyString(pyNames.errorClass(t.type))},`).join('\n')}
    "ERROR_CODES",
    "error_from_response",
]


${classes.join('\n\n\n')}


#: \`\`error.type\`\` → class.
ERROR_CLASSES: Dict[str, Type[PaymentsError]] = {
${model.errorTypes.map((t) => `    ${pyString(t.type)}: ${pyNames.errorClass(t.type)},`).join('\n')}
}

#: Every \`\`error.code\`\` the service answers with, and its \`\`error.type\`\`.
ERROR_CODES: Dict[str, str] = {
${model.errorCodes.map((c) => `    ${pyString(c.code)}: ${pyString(c.type)},`).join('\n')}
}

#: Statuses that only one error type answers with; the fallback when a reply has no error body.
_STATUS_TYPES: Dict[int, str] = {
${Object.entries(model.statusErrorTypes)
  .map(([status, type]) => `    ${status}: ${pyString(type)},`)
  .join('\n')}
}


def error_from_response(status_code: int, body: Any, headers: Mapping[str, str]) -> PaymentsError:
    """The typed error for an error reply: by \`\`error.type\`\`, else by status."""
    raw = body.get("error") if isinstance(body, dict) and isinstance(body.get("error"), dict) else {}
    type_ = raw.get("type")
    if type_ not in ERROR_CLASSES:
        type_ = _STATUS_TYPES.get(status_code, ${fallback('api_error')} if status_code >= 500 else ${fallback('invalid_request_error')})
    return ERROR_CLASSES[type_](
        raw.get("message") or f"The service answered {status_code} without an error body.",
        type=type_,
        code=raw.get("code"),
        param=raw.get("param"),
        decline_code=raw.get("decline_code"),
        status_code=status_code,
        request_id=raw.get("request_id") or headers.get("request-id"),
        headers=headers,
        raw=raw,
    )
`;
}

function emitClient(model: ApiModel): string {
  const roots = model.resources;
  return `${PY_HEADER}
from __future__ import annotations

from typing import Optional

from ._http import DEFAULT_BASE_URL, DEFAULT_MAX_NETWORK_RETRIES, DEFAULT_TIMEOUT, RequestSender
from ._version import SDK_VERSION
${roots.map((r) => `from .resources.${pyNames.module(r.path)} import ${pyNames.resourceClass(r.path)}`).join('\n')}
from .webhooks import Webhook


class Client:
    """The client for the payments service. Build one per key and reuse it::

        import os
        import payments

        client = payments.Client(os.environ["PAYMENTS_SECRET_KEY"], api_version="${model.latestVersion}")

    Args:
        api_key: A secret (\`\`service_...\`\`) or restricted (\`\`rk_...\`\`) key. Publishable keys are refused.
        api_version: Pins the API version (\`\`YYYY-MM-DD\`\`), sent as \`\`Service-Version\`\`. None: the account's default.
        timeout: Seconds each attempt may take before it is abandoned (then retried, or a ConnectionError).
        max_network_retries: Retries after a connection error, timeout, 409, 429 or 5xx.
        base_url: Where the service listens, without \`\`/v1\`\`.
    """

    VERSION = SDK_VERSION
    #: Webhook signature verification; needs no key.
    webhooks = Webhook

    def __init__(
        self,
        api_key: str,
        *,
        api_version: Optional[str] = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_network_retries: int = DEFAULT_MAX_NETWORK_RETRIES,
        base_url: str = DEFAULT_BASE_URL,
    ) -> None:
        sender = RequestSender(
            api_key,
            api_version=api_version,
            timeout=timeout,
            max_network_retries=max_network_retries,
            base_url=base_url,
        )
${roots.map((r) => `        self.${pyNames.attribute(r.name)} = ${pyNames.resourceClass(r.path)}(sender)`).join('\n')}
`;
}

function emitVersion(model: ApiModel): string {
  return `${PY_HEADER}
#: This SDK's version, sent in User-Agent.
SDK_VERSION = "${SDK_VERSION}"

#: The API releases \`\`api_version\`\` accepts, oldest first.
API_VERSIONS = (${model.versions.map(pyString).join(', ')}${model.versions.length === 1 ? ',' : ''})

#: The release this SDK's types describe.
LATEST_API_VERSION = "${model.latestVersion}"
`;
}

function emitInit(model: ApiModel): string {
  const errors = [
    'PaymentsError',
    'ConnectionError',
    'ConfigurationError',
    'SignatureVerificationError',
    ...model.errorTypes.map((t) => pyNames.errorClass(t.type)),
  ];
  const exported = [
    'Client',
    'Webhook',
    'ListObject',
    'RequestOptions',
    'NOT_GIVEN',
    'SDK_VERSION',
    'API_VERSIONS',
    'LATEST_API_VERSION',
    ...errors,
  ];
  return `${PY_HEADER}
"""The payments service SDK for Python: \`\`payments.Client(api_key)\`\`."""
from ._client import Client
from ._http import NOT_GIVEN, RequestOptions
from ._pagination import ListObject
from ._version import API_VERSIONS, LATEST_API_VERSION, SDK_VERSION
from .errors import (
${errors.map((e) => `    ${e},`).join('\n')}
)
from .webhooks import Webhook

__version__ = SDK_VERSION

__all__ = [
${exported.map((e) => `    ${pyString(e)},`).join('\n')}
]
`;
}

function pyproject(model: ApiModel): string {
  return `${PY_HEADER}
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "payments-sdk"
version = "${SDK_VERSION}"
description = "The Python SDK for the payments service (API ${model.latestVersion}); standard library only."
readme = "README.md"
requires-python = ">=3.8"
license = { text = "MIT" }
dependencies = []

[tool.setuptools]
packages = ["payments", "payments.resources"]

[tool.setuptools.package-data]
payments = ["py.typed"]
`;
}
