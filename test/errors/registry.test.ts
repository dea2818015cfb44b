import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { errorDocs } from '../../scripts/error-docs.js';
import { ApiError } from '../../src/errors/api-error.js';
import { ERROR_CODES, ERROR_TYPES, errorTypeForStatus } from '../../src/errors/registry.js';

describe('error registry', () => {
  test('docs/errors.md is generated from the registry (run `npm run openapi`)', () => {
    assert.equal(readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8'), errorDocs());
  });

  test('every code has a known type, a status of its type, and a description', () => {
    for (const [code, spec] of Object.entries(ERROR_CODES)) {
      assert.ok(ERROR_TYPES.includes(spec.type), code);
      assert.ok(spec.description.length > 10, code);
      if (spec.type !== 'invalid_request_error' && spec.type !== 'idempotency_error') {
        assert.equal(errorTypeForStatus(spec.status), spec.type, code);
      }
    }
  });

  test('the contract’s codes are all present', () => {
    for (const code of [
      'parameter_missing',
      'idempotency_key_missing',
      'idempotency_key_invalid',
      'idempotency_key_reused',
      'idempotency_key_in_use',
      'api_key_missing',
      'unsupported_auth_scheme',
      'jwt_not_accepted',
      'api_key_malformed',
      'api_key_invalid',
      'api_key_revoked',
      'api_key_expired',
      'api_key_in_query_string',
      'insufficient_scope',
      'livemode_mismatch',
      'https_required',
      'resource_missing',
      'payment_unexpected_state',
      'api_version_invalid',
      'card_declined',
    ]) {
      assert.ok(code in ERROR_CODES, code);
    }
  });

  test('ApiError renders the contract’s body', () => {
    const err = new ApiError('parameter_missing', 'Missing required param: currency.', { param: 'currency' });
    assert.deepEqual(err.toBody('req_1'), {
      error: {
        type: 'invalid_request_error',
        code: 'parameter_missing',
        message: 'Missing required param: currency.',
        param: 'currency',
        request_id: 'req_1',
      },
    });
    assert.equal(new ApiError('resource_missing', 'x', { status: 400 }).status, 400);
  });
});
