import type { RecoveryCodes } from '@quire/core';
import { apiRequest, lazyContract, serviceUrl } from '../../../lib/api/index.js';

const recoveryCodesSchema = lazyContract((c) => c.recoveryCodesSchema);

/**
 * POST {api}/two-step/authenticator/confirm: turns 2-step verification on with the app's first code; answers the ten
 * recovery codes, shown this once.
 */
export function confirmAuthenticator(code: string): Promise<RecoveryCodes> {
  return apiRequest(serviceUrl('api', '/two-step/authenticator/confirm'), { method: 'POST', json: { code }, schema: recoveryCodesSchema });
}
