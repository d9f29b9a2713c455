import { passwordResetRequestedSchema } from '@quire/core';
import { apiRequest, serviceUrl } from '../../../lib/api/index.js';

/** POST {identity}/request-password-reset: mails a reset link (same answer whether or not the account exists). */
export async function requestPasswordReset(email: string): Promise<void> {
  await apiRequest(serviceUrl('identity', '/request-password-reset'), { method: 'POST', json: { email }, schema: passwordResetRequestedSchema });
}
