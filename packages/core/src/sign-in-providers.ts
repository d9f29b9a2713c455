/**
 * The names of the sign-in providers as the sign-in screen shows them (spec §2: Google, Office 365, e-mail), by the
 * ids the analytics data carries. An id not listed shows as it is.
 */
const SIGN_IN_PROVIDER_NAMES: Readonly<Record<string, string>> = {
  google: 'Google',
  office365: 'Office 365',
  password: 'Email',
  clever: 'Clever',
};

/** A sign-in provider's name for people: 'office365' → 'Office 365'. */
export function signInProviderName(id: string): string {
  return SIGN_IN_PROVIDER_NAMES[id] ?? id;
}
