import { apiRequest, isApiError, lazyContract, serviceUrl } from '../../../lib/api/index.js';

const providerNamesSchema = lazyContract((c) => c.providerNamesSchema);

/** The sign-in methods an account has: 'password', 'google.com' (the spec's {host}), 'office365'. */
export type ProviderName = 'password' | 'google.com' | 'office365' | (string & {});

/**
 * GET {api}/users/v2/providers/{email}; an empty list or a failed lookup both mean "no account" — except
 * a look-up refused by the rate limit (429), which says nothing about the account: it throws, so a
 * known admin is not sent to 'Create account' (docs/security.md).
 */
export async function getProviders(email: string): Promise<ProviderName[]> {
  try {
    return await apiRequest(serviceUrl('api', '/users/v2/providers', email), { schema: providerNamesSchema });
  } catch (failure) {
    if (isApiError(failure) && failure.status === 429) throw failure;
    return [];
  }
}

/** Where the e-mail step goes next (spec §4 "E-mail sign-in"). */
export type EmailNextStep = 'password' | 'google' | 'office365' | 'register';

export function nextStepFor(providers: readonly ProviderName[]): EmailNextStep {
  if (providers.includes('password')) return 'password';
  if (providers.includes('google.com')) return 'google';
  if (providers.includes('office365')) return 'office365';
  return 'register';
}
