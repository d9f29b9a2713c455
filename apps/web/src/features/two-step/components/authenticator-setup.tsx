import { Alert, Button, Code, Group, Image, List, Loader, Stack, Text, TextInput } from '@mantine/core';
import type { AuthenticatorSetup as Setup, RecoveryCodes } from '@quire/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { hasErrorCode, userFacingMessage } from '../../../lib/api/index.js';
import { confirmAuthenticator } from '../api/confirm-authenticator.js';
import { startAuthenticator } from '../api/start-authenticator.js';
import { FormError } from '../../../components/ui/form-error.js';
import { useSubmitOnce } from '../../../components/ui/use-submit-once.js';

/** The secret in groups of four, easier to type into an app by hand. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

export interface AuthenticatorSetupProps {
  /** 2-step verification is on: the codes to show once. */
  onConfirmed: (codes: RecoveryCodes) => void;
  onCancel: () => void;
}

/**
 * Setting up an authenticator app: the QR code the server drew (an SVG shown as an image, so nothing in it runs) and
 * the secret for typing by hand, then the app's first code, which turns 2-step verification on.
 */
export function AuthenticatorSetup({ onConfirmed, onCancel }: AuthenticatorSetupProps) {
  const [setup, setSetup] = useState<Setup | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [attempted, setAttempted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { submit, busy } = useSubmitOnce();
  const field = useRef<HTMLInputElement>(null);

  const begin = async () => {
    setLoadError(null);
    setError(null);
    setCode('');
    try {
      setSetup(await startAuthenticator());
    } catch (failure) {
      setLoadError(userFacingMessage(failure) ?? 'The set-up could not be started, please try again.');
    }
  };

  // One set-up per opening; a new one replaces an unconfirmed one on the server.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void begin();
  }, []);

  const compact = code.replace(/\s/g, '');
  const formatError = compact === '' ? 'Enter the 6-digit code your app shows.' : /^\d{6}$/.test(compact) ? null : 'The code is 6 digits, such as 123456.';

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    setError(null);
    if (formatError) return;
    await submit(async () => {
      try {
        onConfirmed(await confirmAuthenticator(compact));
      } catch (failure) {
        if (hasErrorCode(failure, 'two_step_enrolment_expired')) {
          // A new QR code at once: the old one can no longer be confirmed.
          await begin();
        }
        setError(userFacingMessage(failure) ?? 'Something went wrong, please try again.');
        setCode('');
        field.current?.focus();
      }
    });
  };

  if (loadError) {
    return (
      <Stack gap="sm">
        <Alert color="red" variant="light" role="alert">
          {loadError}
        </Alert>
        <Group>
          <Button onClick={() => void begin()}>Try again</Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    );
  }
  if (!setup) return <Loader aria-label="Preparing the set-up" />;

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)}>
      <Stack gap="md">
        <List type="ordered" spacing="sm">
          <List.Item>
            Open your authenticator app (such as Google Authenticator, Microsoft Authenticator or 1Password) and add an account.
          </List.Item>
          <List.Item>
            <Stack gap="xs">
              <Text>Scan this QR code:</Text>
              <Image
                src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrCodeSvg)}`}
                alt="QR code for your authenticator app"
                w={200}
                h={200}
                bg="white"
              />
              <Text>Or, if you cannot scan it, type this key into the app:</Text>
              <Code fz="md" data-testid="authenticator-secret" style={{ wordBreak: 'break-all' }}>
                {grouped(setup.secret)}
              </Code>
            </Stack>
          </List.Item>
          <List.Item>Enter the 6-digit code the app shows for this account.</List.Item>
        </List>
        <FormError message={error} />
        <TextInput
          ref={field}
          label="Code from the app"
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          error={attempted ? formatError : undefined}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          maw={240}
          required
        />
        <Group>
          <Button type="submit" loading={busy}>
            Turn on
          </Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
