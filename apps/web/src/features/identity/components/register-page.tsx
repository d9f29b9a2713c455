import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { authMessages, isDistrictSsoEmail, normaliseEmail, validateEmail, validateName, validatePassword } from '@quire/core';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { paths } from '../../../config/paths.js';
import { useConsoleConfig } from '../../../lib/console-config.js';
import { authFailureToError, useSessionControls } from '../../../lib/session/index.js';
import { hasErrorCode } from '../../../lib/api/index.js';
import { checkAllowedAsTeacher } from '../api/allowed-as-teacher.js';
import { AuthCard } from './auth-card.js';
import { EmailField } from './email-field.js';
import { FormError } from '../../../components/ui/form-error.js';
import { SignInGate } from './sign-in-gate.js';
import { TermsLine } from './terms-line.js';

/** /sign-in/register[/:email]: 'Create account' (spec §2, §5). */
export function RegisterPage() {
  const { email } = useParams();
  return (
    <SignInGate>
      <RegisterForm key={email ?? ''} initialEmail={email ?? ''} />
    </SignInGate>
  );
}

function RegisterForm({ initialEmail }: { initialEmail: string }) {
  const config = useConsoleConfig();
  const controls = useSessionControls();
  const [email, setEmail] = useState(initialEmail);
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [password, setPassword] = useState('');
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The address that already has an account: offers 'Sign in' instead. */
  const [existing, setExisting] = useState<string | null>(null);

  // The city-government rule is for sign-in only (spec §5); the district-SSO rule applies here too.
  const errors = {
    email: validateEmail(email) ?? (isDistrictSsoEmail(email, config.districtSsoDomains) ? authMessages.districtSso : null),
    firstName: validateName(firstName),
    lastName: validateName(lastName),
    password: validatePassword(password),
  };
  const shown = (message: string | null) => (attempted ? message : undefined);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    setError(null);
    setExisting(null);
    if (Object.values(errors).some(Boolean)) return;
    const address = normaliseEmail(email);
    setBusy(true);
    try {
      // Sign-up as an admin first checks that the address is allowed as a teacher (spec §4).
      const refusal = await checkAllowedAsTeacher(address);
      if (refusal) {
        setError(refusal);
        return;
      }
      await controls.register({ email: address, displayName: `${firstName.trim()} ${lastName.trim()}`, password });
      // Signed in, unverified: the gate moves on to "Verify your email".
    } catch (failure) {
      const refusal = authFailureToError(failure);
      if (hasErrorCode(refusal, 'auth/email-already-in-use')) setExisting(address);
      setError(refusal.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Create account">
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <Stack gap="md">
          <FormError message={error}>
            {existing && (
              <Button component={Link} to={paths.signIn.email(existing)} mt="sm" size="xs">
                Sign in
              </Button>
            )}
          </FormError>
          {/* The cursor starts in the first field left to fill: the address may come from the route. */}
          <EmailField value={email} onChange={setEmail} error={shown(errors.email)} autoFocus={!initialEmail} />
          <Group grow align="flex-start">
            <TextInput
              label="First name"
              autoComplete="given-name"
              value={firstName}
              onChange={(event) => setFirstName(event.currentTarget.value)}
              error={shown(errors.firstName)}
              autoFocus={Boolean(initialEmail)}
              required
            />
            <TextInput
              label="Last name"
              autoComplete="family-name"
              value={lastName}
              onChange={(event) => setLastName(event.currentTarget.value)}
              error={shown(errors.lastName)}
              required
            />
          </Group>
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={shown(errors.password)}
            required
          />
          <TermsLine action="creating an account" />
          <Group justify="flex-end">
            <Button variant="default" component={Link} to={paths.signIn.root()}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Create account
            </Button>
          </Group>
          <Anchor component={Link} to={paths.signIn.email()} size="sm">
            Already have an account? Sign in
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}
