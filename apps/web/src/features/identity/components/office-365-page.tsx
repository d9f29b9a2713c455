import { Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { env } from '../../../config/env.js';
import { paths } from '../../../config/paths.js';
import { readPopupOutcome, useSessionControls } from '../../../lib/session/index.js';
import { AuthCard } from './auth-card.js';
import { FormError } from '../../../components/ui/form-error.js';
import { PopupReport } from './popup-report.js';
import { SignInGate } from './sign-in-gate.js';

/** True when Microsoft has sent the pop-up back here with its answer (this page is the redirect URI). */
function isProviderRedirect(search: string): boolean {
  const params = new URLSearchParams(search);
  return params.has('state') && (params.has('code') || params.has('error'));
}

/** /sign-in/office-365: the Microsoft pop-up sign-in, its redirect URI, and its failure screen (spec §2). */
export function Office365Page() {
  const location = useLocation();
  const forward = isProviderRedirect(location.search);
  const outcome = useMemo(() => readPopupOutcome(location.search), [location.search]);

  useEffect(() => {
    // The identity server finishes the exchange (its provider callback, {identity}/callback/{provider}),
    // then sends the pop-up on to the sign-in's callback URL.
    if (forward) window.location.replace(`${env.identity}/callback/office365${location.search}`);
  }, [forward, location.search]);

  if (forward) return <PopupReportPending />;
  if (outcome) return <PopupReport outcome={outcome} />;
  return (
    <SignInGate>
      <Office365SignIn />
    </SignInGate>
  );
}

function PopupReportPending() {
  return (
    <Center component="main" mih="100vh" role="status">
      <Loader aria-label="Signing you in" />
    </Center>
  );
}

function Office365SignIn() {
  const controls = useSessionControls();
  const navigate = useNavigate();
  const { pendingProvider, error } = controls.state;
  const failure = error?.source === 'office365' ? error.message : null;

  const start = () => void controls.signInWithProvider('office365').catch(() => undefined);

  // Opened directly (not from the Office 365 button): start the pop-up once. A browser that blocks
  // pop-ups outside a click shows the failure, whose 'Try again' is a click.
  const started = useRef(false);
  useEffect(() => {
    if (started.current || pendingProvider || failure) return;
    started.current = true;
    start();
    // Only on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const cancel = () => {
    controls.clearError();
    void navigate(paths.signIn.root());
  };

  return (
    <AuthCard title="Sign in with Office 365">
      {failure ? (
        <Stack gap="md">
          <FormError message={failure} />
          <Group justify="flex-end">
            <Button variant="default" onClick={cancel}>
              Cancel
            </Button>
            <Button onClick={start}>Try again</Button>
          </Group>
        </Stack>
      ) : (
        <Stack align="center" gap="sm" role="status">
          <Loader aria-label="Signing you in with Office 365" />
          <Text>Continue in the Microsoft window that opened.</Text>
          <Button variant="subtle" onClick={cancel}>
            Cancel
          </Button>
        </Stack>
      )}
    </AuthCard>
  );
}
