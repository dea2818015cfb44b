import type { ApiModel } from '../../model.js';
import { names } from './names.js';
import { HEADER } from './resources.js';
import { docLines, quote } from './type-expr.js';

/** src/errors.ts: one class per `error.type` of the registry, the codes, and the reply → class mapping. */
export function emitErrors(model: ApiModel): string {
  const classes = model.errorTypes.map((t) => {
    const codes = t.codes.map((c) => `- \`${c.code}\` (${c.status}): ${c.description}`);
    const doc = docLines([`\`${t.type}\`${t.statuses.length ? `, HTTP ${t.statuses.join(', ')}` : ''}.`, '', ...codes].join('\n'), '');
    const name = names.errorClass(t.type);
    return [...doc, `export class ${name} extends PaymentsError {`, `  override readonly name: string = '${name}';`, '}'].join('\n');
  });
  const map = model.errorTypes.map((t) => `  ${t.type}: ${names.errorClass(t.type)},`);
  const statuses = Object.entries(model.statusErrorTypes).map(([status, type]) => `  ${status}: '${type}',`);
  const codes = model.errorCodes.map((c) => `  | ${quote(c.code)}`);
  return `${HEADER}
import { PaymentsError, type RawError } from './runtime/error-base.js';

export { ConfigurationError, ConnectionError, PaymentsError, type RawError, SignatureVerificationError } from './runtime/error-base.js';

${classes.join('\n\n')}

/** Every \`error.code\` the service answers with. */
export type ErrorCode =
${codes.join('\n')};

/** \`error.type\` → class. */
export const ERROR_CLASSES = {
${map.join('\n')}
} as const;

export type ErrorType = keyof typeof ERROR_CLASSES;

/** Statuses that only one error type answers with; the fallback when a reply has no error body. */
const STATUS_TYPES: Readonly<Record<number, ErrorType>> = {
${statuses.join('\n')}
};

/** The typed error for an error reply: by \`error.type\`, else by status. */
export function errorFromResponse(statusCode: number, body: unknown, headers: Record<string, string>): PaymentsError {
  const raw: RawError = (body as { error?: RawError } | undefined)?.error ?? {};
  const type = typeof raw.type === 'string' && raw.type in ERROR_CLASSES ? (raw.type as ErrorType) : fallbackType(statusCode);
  const ErrorClass = ERROR_CLASSES[type];
  const message = raw.message ?? \`The service answered \${statusCode} without an error body.\`;
  return new ErrorClass(message, {
    type,
    code: raw.code,
    param: raw.param,
    declineCode: raw.decline_code,
    statusCode,
    requestId: raw.request_id ?? headers['request-id'],
    headers,
    raw,
  });
}

function fallbackType(statusCode: number): ErrorType {
  return STATUS_TYPES[statusCode] ?? (statusCode >= 500 ? ${fallback(model, 'api_error')} : ${fallback(model, 'invalid_request_error')});
}
`;
}

function fallback(model: ApiModel, preferred: string): string {
  const type = model.errorTypes.find((t) => t.type === preferred) ?? model.errorTypes[0];
  if (!type) throw new Error('The document lists no error types (x-error-types).');
  return `'${type.type}'`;
}
