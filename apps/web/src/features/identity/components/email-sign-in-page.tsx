import { Anchor, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { normaliseEmail, rateLimitMessages, signInDomainError, validateEmail, validatePassword } from '@quire/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { paths } from '../../../config/paths.js';
import { useConsoleConfig } from '../../../lib/console-config.js';
import { authFailureToError, shownAuthMessage, useSessionControls } from '../../../lib/session/index.js';
import { getProviders, nextStepFor, type EmailNextStep } from '../api/get-providers.js';
import { AuthCard } from './auth-card.js';
import { EmailField } from './email-field.js';
import { FormError } from '../../../components/ui/form-error.js';
import { SignInGate } from './sign-in-gate.js';

type Step = 'email' | Exclude<EmailNextStep, 'register'>;

/** An address registered with a provider signs in there: what the step says and its button names. */
const PROVIDER_ACCOUNTS = {
  google: { account: 'a Google account', name: 'Google' },
  office365: { account: 'an Office 365 account', name: 'Office 365' },
} as const;

/** /sign-in/email[/:email]: the two-step e-mail sign-in (spec §2, §4 "E-mail sign-in"). */
export function EmailSignInPage() {
  const { email } = useParams();
  return (
    <SignInGate>
      {/* A new address in the URL starts the form again. */}
      <EmailSignInForm key={email ?? ''} initialEmail={email ?? ''} />
    </SignInGate>
  );
}

function EmailSignInForm({ initialEmail }: { initialEmail: string }) {
  const config = useConsoleConfig();
  const controls = useSessionControls();
  const navigate = useNavigate();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [step, setStep] = useState<Step>('email');
  // Messages show only after the first submit attempt of each step (spec §5).
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const emailError = validateEmail(email) ?? signInDomainError(email, config);
  const passwordError = validatePassword(password);

  const lookUp = async (address: string) => {
    setBusy(true);
    let next: EmailNextStep;
    try {
      next = nextStepFor(await getProviders(address));
    } catch {
      // Only a rate-limited look-up throws: stay on the e-mail step and say so.
      setBusy(false);
      setError(rateLimitMessages.tooManyRequests);
      return;
    }
    setBusy(false);
    if (next === 'register') {
      void navigate(paths.signIn.register(address));
      return;
    }
    setStep(next);
    setAttempted(false);
  };

  // /sign-in/email/{email} (e.g. from "Sign in" on the register screen) goes straight to the lookup.
  const autoLookup = useRef(false);
  useEffect(() => {
    if (autoLookup.current || !initialEmail || emailError) return;
    autoLookup.current = true;
    void lookUp(normaliseEmail(initialEmail));
    // Runs once for the address the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    setError(null);
    if (emailError) return;
    const address = normaliseEmail(email);
    if (step === 'email') return lookUp(address);
    if (step !== 'password' || passwordError) return;
    setBusy(true);
    try {
      await controls.signInWithEmail(address, password);
      // The gate moves on: to the console, or to "Verify your email" for an unverified account.
    } catch (failure) {
      setError(authFailureToError(failure).message);
    } finally {
      setBusy(false);
    }
  };

  const changeEmail = (value: string) => {
    setEmail(value);
    if (step !== 'email') {
      setStep('email');
      setPassword('');
      setAttempted(false);
    }
  };

  const signInWithProvider = (provider: 'google' | 'office365') => {
    setError(null);
    controls.signInWithProvider(provider).catch((failure: unknown) => setError(shownAuthMessage(authFailureToError(failure), config.productName)));
  };

  return (
    <AuthCard title="Sign in with email">
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <Stack gap="md">
          <FormError message={error} />
          {/* The cursor starts in the form's first field; the password step focuses its own field. */}
          <EmailField value={email} onChange={changeEmail} error={attempted ? emailError : undefined} autoFocus />
          {step === 'password' && (
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              error={attempted ? passwordError : undefined}
              required
              autoFocus
            />
          )}
          {(step === 'google' || step === 'office365') && (
            <Stack gap="xs">
              <Text>This email address is registered with {PROVIDER_ACCOUNTS[step].account}.</Text>
              <Button variant="default" onClick={() => signInWithProvider(step)}>
                Sign in with {PROVIDER_ACCOUNTS[step].name}
              </Button>
            </Stack>
          )}
          <Group justify="space-between">
            <Anchor component={Link} to={paths.signIn.forgottenPassword(emailError ? undefined : normaliseEmail(email))} size="sm">
              Forgotten password?
            </Anchor>
            {(step === 'email' || step === 'password') && (
              <Button type="submit" loading={busy}>
                {step === 'password' ? 'Sign in' : 'Next'}
              </Button>
            )}
          </Group>
          <Anchor component={Link} to={paths.signIn.root()} size="sm">
            Other ways to sign in
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}
