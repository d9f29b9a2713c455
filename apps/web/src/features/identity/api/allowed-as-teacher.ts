import { authMessages } from '@quire/core';
import { apiRequest, isApiError, lazyContract, serviceUrl } from '../../../lib/api/index.js';

const allowedAsTeacherSchema = lazyContract((c) => c.allowedAsTeacherSchema);

/**
 * POST {auth}/allowed-as-teacher before signing up as an admin: null when allowed, else the text
 * to show (403 → "You can't sign up as admin with this email address").
 */
export async function checkAllowedAsTeacher(email: string): Promise<string | null> {
  try {
    await apiRequest(serviceUrl('auth', '/allowed-as-teacher'), { method: 'POST', form: { email }, schema: allowedAsTeacherSchema });
    return null;
  } catch (error) {
    if (isApiError(error) && error.status === 403) return authMessages.signUpAsAdminRefused;
    throw error;
  }
}
