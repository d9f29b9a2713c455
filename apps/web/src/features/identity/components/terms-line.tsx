import { Anchor, Text, VisuallyHidden } from '@mantine/core';
import { useConsoleConfig } from '../../../lib/console-config.js';

/** A link to one of the configured legal pages; it opens beside the sign-in form, which keeps what was typed. */
function LegalLink({ href, children }: { href: string; children: string }) {
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" inherit underline="always">
      {children}
      <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
    </Anchor>
  );
}

/**
 * The terms-of-service agreement line (spec §2), e.g. "By signing in, you agree to …", linking the
 * Terms of Service and the Privacy Policy configured for the console (TERMS_URL, PRIVACY_URL).
 */
export function TermsLine({ action }: { action: string }) {
  const { termsUrl, privacyUrl } = useConsoleConfig();
  return (
    <Text size="sm" c="dimmed">
      By {action}, you agree to our <LegalLink href={termsUrl}>Terms of Service</LegalLink> and{' '}
      <LegalLink href={privacyUrl}>Privacy Policy</LegalLink>.
    </Text>
  );
}
