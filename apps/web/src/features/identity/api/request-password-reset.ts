import { apiRequest, lazyContract, serviceUrl } from '../../../lib/api/index.js';

const passwordResetRequestedSchema = lazyContract((c) => c.passwordResetRequestedSchema);

/** POST {identity}/request-password-reset: mails a reset link (same answer whether or not the account exists). */
export async function requestPasswordReset(email: string): Promise<void> {
  await apiRequest(serviceUrl('identity', '/request-password-reset'), { method: 'POST', json: { email }, schema: passwordResetRequestedSchema });
}
