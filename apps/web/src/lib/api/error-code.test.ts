import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.js';
import { errorCode, hasErrorCode } from './error-code.js';
import { GraphqlError } from './graphql-client.js';

describe('error codes of failed calls', () => {
  it('reads the catalogue code of a REST or GraphQL failure, and nothing else', () => {
    expect(errorCode(new ApiError({ status: 409, code: 'last_admin', message: 'x' }))).toBe('last_admin');
    expect(hasErrorCode(new GraphqlError('LtiCredentials', 200, [{ message: 'x', extensions: { code: 'admin_required' } }]), 'last_admin', 'admin_required')).toBe(true);
    // The identity provider's own codes are not the catalogue's.
    expect(errorCode(new ApiError({ status: 401, code: 'UNAUTHENTICATED', message: 'x' }))).toBeNull();
    expect(errorCode(new Error('x'))).toBeNull();
  });

  it('refuses to compare with a code the server never sends', () => {
    // @ts-expect-error 'UNAUTHENTICATED' is not in the error catalogue
    expect(hasErrorCode(new Error('x'), 'UNAUTHENTICATED')).toBe(false);
  });
});
