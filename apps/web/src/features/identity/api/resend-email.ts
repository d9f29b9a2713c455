import { apiRequest, lazyContract, serviceUrl } from '../../../lib/api/index.js';

const resendEmailSchema = lazyContract((c) => c.resendEmailSchema);

/** POST {api}/resend-email/{email}: sends the verification mail again. */
export async function resendVerificationEmail(email: string): Promise<void> {
  await apiRequest(serviceUrl('api', '/resend-email', email), { method: 'POST', schema: resendEmailSchema });
}
