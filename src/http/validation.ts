import { Ajv, type ErrorObject } from 'ajv';
import type { FastifySchemaValidationError } from 'fastify';
import { ApiError } from '../errors/api-error.js';

function createAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  ajv.addKeyword({
    keyword: 'x-text',
    type: 'string',
    schemaType: 'boolean',
    errors: false,
    validate: (enabled: boolean, value: string) => !enabled || (!value.includes('\u0000') && value.isWellFormed()),
  });
  return ajv;
}

// Bodies are JSON and must carry the right types; query strings, paths and headers are text
// and are coerced ("10" → 10) before validation.
const bodyAjv = createAjv(false);
const textAjv = createAjv(true);

export function compileValidator(schema: object, httpPart: string | undefined) {
  return (httpPart === 'body' ? bodyAjv : textAjv).compile(schema);
}

function joinParam(base: string, name: string): string {
  return base ? `${base}.${name}` : name;
}

function describe(error: ErrorObject | FastifySchemaValidationError): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `must be of type ${String(p.type).replace(',', ' or ')}`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters`;
    case 'maxProperties':
      return `can have at most ${String(p.limit)} keys`;
    case 'enum':
    case 'const':
    case 'anyOf':
      return 'is not one of the accepted values';
    case 'pattern':
      return 'is not in the accepted format';
    case 'x-text':
      return 'must not contain NUL characters or unpaired surrogates';
    default:
      return error.message ?? 'is invalid';
  }
}

/** Turns the first schema violation into the contract's error, naming the parameter (dotted). */
export function validationError(errors: readonly (ErrorObject | FastifySchemaValidationError)[], context: string): ApiError {
  // With anyOf/union schemas Ajv lists each branch's failure first; the anyOf entry summarises them.
  const error = errors.find((e) => e.keyword === 'anyOf') ?? errors[0];
  if (!error) return new ApiError('parameter_invalid', 'The request is invalid.');
  const base = (error.instancePath ?? '')
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  const p = error.params as Record<string, unknown>;
  if (error.keyword === 'required') {
    const param = joinParam(base, String(p.missingProperty));
    return new ApiError('parameter_missing', `Missing required param: ${param}.`, { param });
  }
  if (error.keyword === 'additionalProperties') {
    const param = joinParam(base, String(p.additionalProperty));
    return new ApiError('parameter_unknown', `Received unknown parameter: ${param.slice(0, 100)}.`, { param });
  }
  if (error.keyword === 'propertyNames') {
    const param = joinParam(base, String(p.propertyName ?? ''));
    return new ApiError('parameter_invalid', `Metadata keys must be 1 to 40 characters: ${param.slice(0, 100)}.`, { param: base });
  }
  const param = base || (context === 'body' ? 'body' : context);
  const code = error.keyword === 'type' ? 'parameter_invalid_type' : 'parameter_invalid';
  return new ApiError(code, `Invalid ${param}: ${describe(error)}.`, { param });
}
