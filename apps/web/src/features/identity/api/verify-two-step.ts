import type { TwoStepVerified } from '@quire/core';
import { apiRequest, lazyContract, serviceUrl } from '../../../lib/api/index.js';

const twoStepVerifiedSchema = lazyContract((c) => c.twoStepVerifiedSchema);

/**
 * POST {api}/two-step/verify: the sign-in's second step, a code from the authenticator app or a recovery code. With
 * `trustDevice`, the server remembers this browser for 30 days (an HttpOnly cookie).
 */
export function verifyTwoStep(body: { code: string; trustDevice: boolean }): Promise<TwoStepVerified> {
  return apiRequest(serviceUrl('api', '/two-step/verify'), { method: 'POST', json: body, schema: twoStepVerifiedSchema });
}
