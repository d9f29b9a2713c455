import { Button, Stack } from '@mantine/core';
import { IconBrandGoogle, IconBrandWindows, IconKey, IconMail } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { paths } from '../../../config/paths.js';
import { useConsoleConfig } from '../../../lib/console-config.js';
import { readPopupOutcome, shownAuthMessage, useSessionControls } from '../../../lib/session/index.js';
import { passkeysSupported } from '../../../lib/webauthn.js';
import { useSignInMethods } from '../api/sign-in-methods.js';
import { AuthCard } from './auth-card.js';
import { FormError } from '../../../components/ui/form-error.js';
import { PopupReport } from './popup-report.js';
import { SignInGate } from './sign-in-gate.js';
import { TermsLine } from './terms-line.js';

/** /sign-in: choose Google, Office 365 or e-mail (spec §2). */
export function SignInPage() {
  const location = useLocation();
  const outcome = useMemo(() => readPopupOutcome(location.search), [location.search]);
  // The Google pop-up is sent back here; inside it, this page only reports to the opener.
  if (outcome) return <PopupReport outcome={outcome} />;
  return (
    <SignInGate>
      <SignInChoices />
    </SignInGate>
  );
}

function SignInChoices() {
  const controls = useSessionControls();
  const config = useConsoleConfig();
  const methods = useSignInMethods();
  const navigate = useNavigate();
  const { error, pendingProvider } = controls.state;
  const shownError = error && error.source !== 'office365' && error.source !== 'email' ? shownAuthMessage(error, config.productName) : null;
  const [passkeyBusy, setPasskeyBusy] = useState(false);

  // A passkey alone counts as both steps of 2-step verification; the session then goes where the sign-in was going.
  const signInWithPasskey = async () => {
    if (passkeyBusy) return;
    setPasskeyBusy(true);
    try {
      await controls.signInWithPasskey();
    } catch {
      // The session shows the failure above the choices.
    } finally {
      setPasskeyBusy(false);
    }
  };

  const signInWithGoogle = () => {
    void controls.signInWithProvider('google').catch(() => undefined);
  };
  const signInWithOffice365 = () => {
    // The pop-up opens inside this click; its page shows progress and failures.
    void controls.signInWithProvider('office365').catch(() => undefined);
    void navigate(paths.signIn.office365());
  };

  return (
    <AuthCard title="Sign in">
      <FormError message={shownError} />
      <Stack gap="sm">
        {methods.google && (
          <Button
            variant="default"
            leftSection={<IconBrandGoogle size={18} aria-hidden />}
            onClick={signInWithGoogle}
            loading={pendingProvider === 'google'}
          >
            Sign in with Google
          </Button>
        )}
        {methods.office365 && (
          <Button variant="default" leftSection={<IconBrandWindows size={18} aria-hidden />} onClick={signInWithOffice365}>
            Sign in with Office 365
          </Button>
        )}
        <Button component={Link} to={paths.signIn.email()} leftSection={<IconMail size={18} aria-hidden />}>
          Sign in with email
        </Button>
        {passkeysSupported() ? (
          <Button variant="default" leftSection={<IconKey size={18} aria-hidden />} onClick={() => void signInWithPasskey()} loading={passkeyBusy}>
            Sign in with a passkey
          </Button>
        ) : null}
      </Stack>
      <TermsLine action="signing in" />
    </AuthCard>
  );
}
