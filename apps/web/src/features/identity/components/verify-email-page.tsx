import { Button, Group, Stack, Text } from '@mantine/core';
import { authMessages, EMAIL_VERIFICATION_POLL_MS, RESEND_CONFIRMATION_MS } from '@quire/core';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { FullPageLoader } from '../../../components/ui/full-page-loader.js';
import { paths } from '../../../config/paths.js';
import { useSession, useSessionControls } from '../../../lib/session/index.js';
import { resendVerificationEmail } from '../api/resend-email.js';
import { AuthCard } from './auth-card.js';
import { FormError } from '../../../components/ui/form-error.js';

/** Texts for a verification link the server refused (docs/identity.md: ?error=…). */
const LINK_ERRORS: Record<string, string> = {
  invalid_token: 'This verification link is not valid or was already used. Sign in to get a new one.',
  token_expired: 'This verification link has expired. Sign in to get a new one.',
};

/** /sign-in/verify-email: 'Verify your email', polled every 10 s (spec §4 "Verify e-mail"). */
export function VerifyEmailPage() {
  const session = useSession();
  const controls = useSessionControls();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const email = controls.state.unverifiedEmail;
  const [sending, setSending] = useState(false);
  const [confirmation, setConfirmation] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const unverified = session.status === 'unverified';
  useEffect(() => {
    if (!unverified) return;
    const timer = setInterval(() => void controls.reload(), EMAIL_VERIFICATION_POLL_MS);
    return () => clearInterval(timer);
  }, [unverified, controls]);

  // The resend confirmation disappears after 10 s (spec §9).
  useEffect(() => {
    if (!confirmation) return;
    const timer = setTimeout(() => setConfirmation(false), RESEND_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [confirmation]);

  if (session.status === 'loading') return <FullPageLoader />;
  // Verified: on to sign-in, which sends the user where they were going.
  if (session.status === 'signed-in' || session.status === 'second-step' || session.status === 'enrol') return <Navigate to={paths.signIn.root()} replace />;

  const resend = async () => {
    if (!email) return;
    setSending(true);
    setError(null);
    setConfirmation(false);
    try {
      await resendVerificationEmail(email);
      setConfirmation(true);
    } catch {
      setError(authMessages.resendFailed);
    } finally {
      setSending(false);
    }
  };

  const back = async () => {
    // The unverified session ends, so the e-mail sign-in starts afresh.
    if (unverified) await session.signOut();
    void navigate(paths.signIn.email());
  };

  const linkError = LINK_ERRORS[params.get('error') ?? ''];

  return (
    <AuthCard title="Verify your email">
      <Stack gap="md">
        <FormError message={linkError ?? error} />
        {email ? (
          <Text>
            We have sent an email to <strong>{email}</strong>. Follow the link in it to verify your email address; this page
            continues by itself once you have.
          </Text>
        ) : (
          <Text>Follow the link in the email we sent you to verify your email address, then sign in.</Text>
        )}
        {confirmation && (
          <Text role="status" c="teal.9">
            We have sent you another email.
          </Text>
        )}
        <Group justify="space-between">
          <Button variant="default" onClick={() => void back()}>
            Back
          </Button>
          {email && (
            <Button onClick={() => void resend()} loading={sending}>
              Resend email
            </Button>
          )}
        </Group>
      </Stack>
    </AuthCard>
  );
}
