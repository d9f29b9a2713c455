import type { AuthenticatorSetup } from '@quire/core';
import { apiRequest, lazyContract, serviceUrl } from '../../../lib/api/index.js';

const authenticatorSetupSchema = lazyContract((c) => c.authenticatorSetupSchema);

/** POST {api}/two-step/authenticator: a new secret and its QR code, pending until a first code confirms it. */
export function startAuthenticator(): Promise<AuthenticatorSetup> {
  return apiRequest(serviceUrl('api', '/two-step/authenticator'), { method: 'POST', json: {}, schema: authenticatorSetupSchema });
}
