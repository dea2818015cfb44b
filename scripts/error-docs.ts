import { ERROR_CODES, ERROR_TYPES } from '../src/errors/registry.js';

/** docs/errors.md, written from the error registry. */
export function errorDocs(): string {
  const lines = [
    '<!-- Generated from src/errors/registry.ts by `npm run openapi`. Do not edit. -->',
    '# Errors',
    '',
    'Every error response has this shape, with `param` naming the offending input (dotted for',
    'nested fields, `card.number`) and `request_id` matching the `Request-Id` header:',
    '',
    '```json',
    '{ "error": { "type": "invalid_request_error", "code": "parameter_missing",',
    '             "message": "Missing required param: currency.", "param": "currency",',
    '             "request_id": "req_..." } }',
    '```',
    '',
    'No error ever contains a stack trace, SQL, an API key or a card number.',
    '',
  ];
  for (const type of ERROR_TYPES) {
    const codes = Object.entries(ERROR_CODES).filter(([, spec]) => spec.type === type);
    if (codes.length === 0) continue;
    lines.push(`## \`${type}\``, '', '| code | status | when |', '|---|---|---|');
    for (const [code, spec] of codes) lines.push(`| \`${code}\` | ${spec.status} | ${spec.description} |`);
    lines.push('');
  }
  return lines.join('\n');
}
