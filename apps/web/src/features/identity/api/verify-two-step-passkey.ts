import type { TwoStepVerified } from '@quire/core';
import { apiRequest, lazyContract, serviceUrl } from '../../../lib/api/index.js';
import { signWithPasskey } from '../../../lib/webauthn.js';

const passkeyOptionsSchema = lazyContract((c) => c.passkeyOptionsSchema);
const twoStepVerifiedSchema = lazyContract((c) => c.twoStepVerifiedSchema);

/**
 * The second step with a passkey: POST {api}/two-step/verify/passkey-options (the person's own passkeys), the
 * browser's prompt, then POST {api}/two-step/verify/passkey.
 */
export async function verifyTwoStepWithPasskey(trustDevice: boolean): Promise<TwoStepVerified> {
  const options = await apiRequest(serviceUrl('api', '/two-step/verify/passkey-options'), { method: 'POST', schema: passkeyOptionsSchema });
  const response = await signWithPasskey(options);
  return apiRequest(serviceUrl('api', '/two-step/verify/passkey'), { method: 'POST', json: { response, trustDevice }, schema: twoStepVerifiedSchema });
}
