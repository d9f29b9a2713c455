import '../../../styles/complete.js';
import { Alert, Anchor, Badge, Button, Container, Group, Stack, Text } from '@mantine/core';
import { RECOVERY_CODE_COUNT, type TwoStepProof, type TwoStepStatus } from '@quire/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { FullPageLoader } from '../../../components/ui/full-page-loader.js';
import { LoadError } from '../../../components/ui/load-error.js';
import { PageTitle } from '../../../components/ui/page-title.js';
import { paths } from '../../../config/paths.js';
import { useConsoleConfig } from '../../../lib/console-config.js';
import { notifyInfo } from '../../../lib/notify.js';
import { queryKeys } from '../../../lib/query-keys.js';
import { useSession, useSessionControls } from '../../../lib/session/index.js';
import { peekReturnTo, takeReturnTo } from '../../../lib/session/return-to.js';
import { useTwoStepStatus } from '../api/get-two-step-status.js';
import { regenerateRecoveryCodes } from '../api/regenerate-recovery-codes.js';
import { turnOffTwoStep } from '../api/turn-off-two-step.js';
import { AuthenticatorSetup } from './authenticator-setup.js';
import { PasskeysSection } from './passkeys-section.js';
import { ProofDialog } from './proof-dialog.js';
import { RecoveryCodesPanel } from './recovery-codes-panel.js';
import { SecuritySection } from './security-section.js';

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

/**
 * /account/security, from the user menu: the signed-in person's 2-step verification. It stands outside any
 * organisation, so an admin whose organisation requires 2-step verification is sent here (the session's 'enrol'
 * state) before any screen, and goes on to the console once it is on.
 */
export function SecurityPage() {
  const { status } = useSession();
  if (status === 'loading') return <FullPageLoader />;
  if (status === 'signed-out') return <Navigate to={paths.signIn.root()} replace />;
  if (status === 'unverified') return <Navigate to={paths.signIn.verifyEmail()} replace />;
  if (status === 'second-step') return <Navigate to={paths.signIn.twoStep()} replace />;
  return <SecurityScreen enrol={status === 'enrol'} />;
}

type Panel = { kind: 'status' } | { kind: 'setup' } | { kind: 'codes'; codes: string[]; afterEnrolment: boolean };
type Asking = 'regenerate' | 'turn-off' | null;

function SecurityScreen({ enrol }: { enrol: boolean }) {
  const { productName } = useConsoleConfig();
  const session = useSession();
  const controls = useSessionControls();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const status = useTwoStepStatus();
  const [panel, setPanel] = useState<Panel>({ kind: 'status' });
  const [asking, setAsking] = useState<Asking>(null);
  const [continuing, setContinuing] = useState(false);
  const email = session.user?.email ?? '';

  const reloadStatus = () => queryClient.invalidateQueries({ queryKey: queryKeys.twoStepStatus });

  const finish = async () => {
    setPanel({ kind: 'status' });
    await reloadStatus();
  };

  // After enrolment that was required, the session may be used: on to where the sign-in (or the console) was going.
  const continueToConsole = async () => {
    setContinuing(true);
    try {
      await controls.completeTwoStep();
      await navigate(takeReturnTo() ?? paths.root, { replace: true });
    } finally {
      setContinuing(false);
    }
  };

  const regenerate = async (proof: TwoStepProof) => {
    const { recoveryCodes } = await regenerateRecoveryCodes(proof);
    setAsking(null);
    setPanel({ kind: 'codes', codes: recoveryCodes, afterEnrolment: false });
    void reloadStatus();
  };

  const turnOff = async (proof: TwoStepProof) => {
    await turnOffTwoStep(proof);
    setAsking(null);
    notifyInfo('2-step verification is off.');
    await reloadStatus();
  };

  const signOut = async () => {
    await session.signOut();
    await navigate(paths.signIn.root(), { replace: true });
  };

  const body = (() => {
    if (panel.kind === 'setup') {
      return (
        <AuthenticatorSetup
          onConfirmed={({ recoveryCodes }) => {
            setPanel({ kind: 'codes', codes: recoveryCodes, afterEnrolment: true });
            void reloadStatus();
          }}
          onCancel={() => setPanel({ kind: 'status' })}
        />
      );
    }
    if (panel.kind === 'codes') {
      const leave = panel.afterEnrolment && enrol;
      return (
        <RecoveryCodesPanel
          codes={panel.codes}
          email={email}
          doneLabel={leave ? 'I have saved them: continue' : 'I have saved them'}
          onDone={() => void (leave ? continueToConsole() : finish())}
        />
      );
    }
    if (status.isPending) return <FullPageLoader label="Loading 2-step verification" />;
    if (status.isError) return <LoadError title="2-step verification could not be loaded" onRetry={() => status.refetch()} />;
    return <StatusPanel status={status.data} onSetUp={() => setPanel({ kind: 'setup' })} onAsk={setAsking} />;
  })();

  const returnTo = peekReturnTo();
  // Without an authenticator app (passkeys only), the code that proves it is the person is a recovery code.
  const proofCode = status.data && status.data.authenticatorAddedAt === null ? 'recovery' : 'app';
  return (
    <Container component="main" size={640} py="xl" px="md" id="main-content" tabIndex={-1} style={{ outline: 'none' }}>
      <Stack gap="lg">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={700} size="lg">
            {productName}
          </Text>
          <Group gap="md">
            {enrol ? null : (
              <Anchor component={Link} to={returnTo ?? paths.root}>
                Back to the console
              </Anchor>
            )}
            <Anchor component="button" type="button" onClick={() => void signOut()}>
              Sign out
            </Anchor>
          </Group>
        </Group>
        <div>
          <PageTitle mb="xs">Security</PageTitle>
          <Text c="dimmed">{email}</Text>
        </div>
        {enrol && panel.kind !== 'codes' ? (
          <Alert color="blue" variant="light" title="Turn on 2-step verification to continue" role="note">
            Your organisation requires 2-step verification for admins. Set up an authenticator app or add a passkey below; then you can go on to
            the console.
          </Alert>
        ) : null}
        <SecuritySection headingId="two-step-heading" title="2-step verification">
          {body}
        </SecuritySection>
        {panel.kind === 'status' && status.data ? (
          <PasskeysSection
            status={status.data}
            onChanged={() => void reloadStatus()}
            onTurnedOn={(codes) => setPanel({ kind: 'codes', codes, afterEnrolment: true })}
            onTurnOff={() => setAsking('turn-off')}
          />
        ) : null}
      </Stack>
      <ProofDialog
        opened={asking === 'regenerate'}
        title="Get new recovery codes"
        explanation={`Your current recovery codes will stop working. Enter your password or ${proofCode === 'app' ? 'a code from your authenticator app' : 'a recovery code'} to continue.`}
        confirmLabel="Get new codes"
        hasPassword={status.data?.hasPassword ?? true}
        codeKind={proofCode}
        onConfirm={regenerate}
        onClose={() => setAsking(null)}
      />
      <ProofDialog
        opened={asking === 'turn-off'}
        title="Turn off 2-step verification"
        explanation={`Signing in will ask only for your password again, and your ${status.data?.passkeys.length ? 'passkeys and ' : ''}recovery codes will stop working. Enter your password or ${proofCode === 'app' ? 'a code from your authenticator app' : 'a recovery code'} to continue.`}
        confirmLabel="Turn off"
        danger
        hasPassword={status.data?.hasPassword ?? true}
        codeKind={proofCode}
        onConfirm={turnOff}
        onClose={() => setAsking(null)}
      />
      {continuing ? <FullPageLoader label="Opening the console" /> : null}
    </Container>
  );
}

function StatusPanel({ status, onSetUp, onAsk }: { status: TwoStepStatus; onSetUp: () => void; onAsk: (asking: Asking) => void }) {
  if (!status.enabled) {
    return (
      <Stack gap="sm" align="flex-start">
        <Group gap="xs">
          <Text>Status:</Text>
          <Badge color="gray" variant="outline">
            Off
          </Badge>
        </Group>
        <Text>
          With 2-step verification, signing in asks for a code from an app on your phone, or for a passkey, after your password, so a stolen
          password is not enough to reach your organisation. Set up an authenticator app here, or add a passkey below.
        </Text>
        <Button onClick={onSetUp}>Set up an authenticator app</Button>
      </Stack>
    );
  }
  const added = status.authenticatorAddedAt ? dateFormat.format(new Date(status.authenticatorAddedAt)) : null;
  const remaining = status.recoveryCodesRemaining;
  return (
    <Stack gap="sm" align="flex-start">
      <Group gap="xs">
        <Text>Status:</Text>
        <Badge color="dark" variant="filled">
          On
        </Badge>
      </Group>
      {added ? <Text>Authenticator app, added on {added}.</Text> : null}
      {status.passkeys.length ? (
        <Text>
          {status.passkeys.length === 1 ? '1 passkey' : `${status.passkeys.length} passkeys`} (below).
        </Text>
      ) : null}
      <Text data-testid="recovery-codes-remaining">
        Recovery codes: {remaining} of {RECOVERY_CODE_COUNT} left.
        {remaining <= 3 ? ' Get new ones before they run out.' : ''}
      </Text>
      <Group gap="sm">
        {added ? null : (
          <Button variant="default" onClick={onSetUp}>
            Set up an authenticator app
          </Button>
        )}
        <Button variant="default" onClick={() => onAsk('regenerate')}>
          Get new recovery codes
        </Button>
        <Button variant="default" color="red" onClick={() => onAsk('turn-off')} disabled={status.requiredBy !== null}>
          Turn off
        </Button>
      </Group>
      {status.requiredBy ? (
        <Text size="sm" c="dimmed">
          {status.requiredBy === 'organisation'
            ? 'Your organisation requires 2-step verification for admins, so it cannot be turned off.'
            : 'Provider staff must use 2-step verification, so it cannot be turned off.'}
        </Text>
      ) : null}
    </Stack>
  );
}
