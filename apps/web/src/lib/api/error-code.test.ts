import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.js';
import { hasErrorCode } from './error-code.js';
import { GraphqlError } from './graphql-client.js';

describe('error codes of failed calls', () => {
  it('reads the catalogue code of a REST or GraphQL failure, and nothing else', () => {
    expect(hasErrorCode(new ApiError({ status: 409, code: 'last_admin', message: 'x' }), 'last_admin')).toBe(true);
    expect(hasErrorCode(new GraphqlError('LtiCredentials', 200, [{ message: 'x', extensions: { code: 'admin_required' } }]), 'last_admin', 'admin_required')).toBe(true);
    expect(hasErrorCode(new ApiError({ status: 409, code: 'last_admin', message: 'x' }), 'admin_required')).toBe(false);
    expect(hasErrorCode(new Error('x'), 'last_admin')).toBe(false);
  });

  it('refuses to compare with a code the server never sends', () => {
    // @ts-expect-error 'UNAUTHENTICATED' is not in the error catalogue
    expect(hasErrorCode(new Error('x'), 'UNAUTHENTICATED')).toBe(false);
  });
});
