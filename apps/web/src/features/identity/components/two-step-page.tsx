import { Anchor, Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { TRUSTED_DEVICE_DAYS } from '@quire/core';
import { useRef, useState, type FormEvent } from 'react';
import { Navigate } from 'react-router';
import { FullPageLoader } from '../../../components/ui/full-page-loader.js';
import { paths } from '../../../config/paths.js';
import { isApiError } from '../../../lib/api/index.js';
import { useSession, useSessionControls } from '../../../lib/session/index.js';
import { verifyTwoStep } from '../api/verify-two-step.js';
import { verifyTwoStepWithPasskey } from '../api/verify-two-step-passkey.js';
import { PasskeyCancelled, passkeysSupported } from '../../../lib/webauthn.js';
import { peekReturnTo } from '../../../lib/session/return-to.js';
import { AuthCard } from './auth-card.js';
import { FormError } from '../../../components/ui/form-error.js';
import { useSubmitOnce } from '../../../components/ui/use-submit-once.js';

type CodeKind = 'app' | 'recovery';

/** Checked before asking the server, so a typing slip costs none of the limited tries. */
function codeFormatError(kind: CodeKind, code: string): string | null {
  const compact = code.replace(/[\s-]/g, '');
  if (compact === '') return kind === 'app' ? 'Enter the 6-digit code from your authenticator app.' : 'Enter one of your recovery codes.';
  if (kind === 'app') return /^\d{6}$/.test(compact) ? null : 'The code is 6 digits, such as 123456.';
  return /^[a-z0-9]{10}$/i.test(compact) ? null : 'A recovery code is 10 letters and digits, such as abcde-12345.';
}

/** A refusal's own text (a wrong or used code, how long to wait); anything else is the server's fault. */
function refusalText(failure: unknown): string {
  return isApiError(failure) && failure.status > 0 && failure.status < 500 ? failure.message : 'Something went wrong, please try again.';
}

/**
 * /sign-in/two-step: the second step of 2-step verification, after the password, a custom token or Google / Office 365
 * (docs/identity.md "The second step"). A code from the authenticator app, or a recovery code instead; 'Trust this
 * device' skips the step in this browser for 30 days. Once passed, the sign-in goes on where it was going.
 */
export function TwoStepPage() {
  const { status } = useSession();
  if (status === 'loading') return <FullPageLoader />;
  if (status === 'signed-out') return <Navigate to={paths.signIn.root()} replace />;
  if (status === 'unverified') return <Navigate to={paths.signIn.verifyEmail()} replace />;
  if (status === 'enrol') return <Navigate to={paths.account.security()} replace />;
  if (status === 'signed-in') return <Navigate to={peekReturnTo() ?? paths.root} replace />;
  return <SecondStepForm />;
}

function SecondStepForm() {
  const controls = useSessionControls();
  const { signOut } = useSession();
  const [kind, setKind] = useState<CodeKind>('app');
  const [code, setCode] = useState('');
  const [trustDevice, setTrustDevice] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const { submit, busy } = useSubmitOnce();
  const [error, setError] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);

  const formatError = codeFormatError(kind, code);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    setError(null);
    // A double submit (Enter twice) asks once: a code is accepted only once.
    if (formatError) return;
    await submit(async () => {
      try {
        await verifyTwoStep({ code, trustDevice });
        await controls.completeTwoStep();
        // The page's guard goes on to where the sign-in was going.
      } catch (failure) {
        // The server's texts say what to do: a wrong or used code, or how long to wait after too many.
        setError(refusalText(failure));
        setCode('');
        field.current?.focus();
      }
    });
  };

  // The passkey's own prompt is the browser's; its refusals show like a wrong code's.
  const onPasskey = async () => {
    setError(null);
    await submit(async () => {
      try {
        await verifyTwoStepWithPasskey(trustDevice);
        await controls.completeTwoStep();
      } catch (failure) {
        if (failure instanceof PasskeyCancelled) setError(failure.message);
        else if (isApiError(failure) && failure.code === 'passkey_not_found') setError('There is no passkey on your account. Enter a code instead.');
        else setError(refusalText(failure));
      }
    });
  };

  const switchTo = (next: CodeKind) => {
    setKind(next);
    setCode('');
    setAttempted(false);
    setError(null);
    // The new field takes the focus as it mounts (autoFocus).
  };

  const app = kind === 'app';
  return (
    <AuthCard title="2-step verification">
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <Stack gap="md">
          <Text>
            {app ? 'Enter the 6-digit code from your authenticator app.' : 'Enter one of the recovery codes you saved when you turned on 2-step verification. Each code works once.'}
          </Text>
          <FormError message={error} />
          <TextInput
            ref={field}
            key={kind}
            label={app ? 'Code' : 'Recovery code'}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={attempted ? formatError : undefined}
            // Phones show the number pad for a code, and offer a code received by the device.
            inputMode={app ? 'numeric' : 'text'}
            autoComplete={app ? 'one-time-code' : 'off'}
            autoCapitalize="none"
            spellCheck={false}
            maxLength={app ? 7 : 11}
            autoFocus
            required
          />
          <Checkbox
            label="Trust this device"
            description={`You will not be asked for a code in this browser for ${TRUSTED_DEVICE_DAYS} days. Do not tick it on a shared computer.`}
            checked={trustDevice}
            onChange={(event) => setTrustDevice(event.currentTarget.checked)}
          />
          <Button type="submit" loading={busy}>
            Verify
          </Button>
          {passkeysSupported() ? (
            <Button type="button" variant="default" onClick={() => void onPasskey()} disabled={busy}>
              Use a passkey
            </Button>
          ) : null}
          <Group justify="space-between" gap="xs">
            <Anchor component="button" type="button" size="sm" onClick={() => switchTo(app ? 'recovery' : 'app')}>
              {app ? 'Use a recovery code' : 'Use a code from your authenticator app'}
            </Anchor>
            <Anchor component="button" type="button" size="sm" onClick={() => void signOut()}>
              Sign out
            </Anchor>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}
