import { Button, Group, Stack, Text } from '@mantine/core';
import { authErrorMessage, normaliseEmail, rateLimitMessages, UNKNOWN_AUTH_ERROR, validateEmail } from '@quire/core';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { paths } from '../../../config/paths.js';
import { hasErrorCode, isApiError } from '../../../lib/api/index.js';
import { requestPasswordReset } from '../api/request-password-reset.js';
import { AuthCard } from './auth-card.js';
import { EmailField } from './email-field.js';
import { FormError } from '../../../components/ui/form-error.js';

/**
 * The recover form's error text. This form has no password, so no answer may speak of one: a
 * limit says so plainly, and a password text of the catalogue gives way to the generic one.
 */
function recoverErrorText(failure: unknown): string {
  const code = isApiError(failure) ? failure.code : null;
  if ((isApiError(failure) && failure.status === 429) || (isApiError(failure) && hasErrorCode(failure, 'auth/too-many-requests'))) return rateLimitMessages.tooManyRequests;
  const text = authErrorMessage(code);
  return /password/i.test(text) ? UNKNOWN_AUTH_ERROR : text;
}

/** /sign-in/forgotten-password[/:email]: 'Recover password', then a sent confirmation (spec §4). */
export function ForgottenPasswordPage() {
  const { email } = useParams();
  return <RecoverForm key={email ?? ''} initialEmail={email ?? ''} />;
}

function RecoverForm({ initialEmail }: { initialEmail: string }) {
  const [email, setEmail] = useState(initialEmail);
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const emailError = validateEmail(email);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    setError(null);
    if (emailError) return;
    const address = normaliseEmail(email);
    setBusy(true);
    try {
      await requestPasswordReset(address);
      setSentTo(address);
    } catch (failure) {
      setError(recoverErrorText(failure));
    } finally {
      setBusy(false);
    }
  };

  if (sentTo) {
    return (
      <AuthCard title="Recover password">
        <Text role="status">
          If an account exists for {sentTo}, we have sent it an email with a link to reset your password. The link works for one
          hour.
        </Text>
        <Group justify="flex-end">
          <Button component={Link} to={paths.signIn.email(sentTo)}>
            Sign in
          </Button>
        </Group>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Recover password">
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <Stack gap="md">
          <Text>Enter your email address and we will send you a link to reset your password.</Text>
          <FormError message={error} />
          <EmailField value={email} onChange={setEmail} error={attempted ? emailError : undefined} autoFocus />
          <Group justify="flex-end">
            <Button variant="default" component={Link} to={paths.signIn.root()}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Send
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}
