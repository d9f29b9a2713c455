import { Alert, Anchor, Button, Center, Code, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { LTI_NEW_TAB_TEXT, LTI_PRIVACY_TEXT, lmsMessages, ltiUsersCreatedText, TABLE_ROW_HEIGHT } from '@quire/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { CopyValue } from '../../../components/ui/copy-value.js';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.js';
import { LoadError } from '../../../components/ui/load-error.js';
import { PageTitle } from '../../../components/ui/page-title.js';
import { GraphqlError, hasErrorCode } from '../../../lib/api/index.js';
import { useConsoleConfig } from '../../../lib/console-config.js';
import { notifyError } from '../../../lib/notify.js';
import { useSession } from '../../../lib/session/index.js';
import { useGenerateLtiCredentials } from '../api/generate-lti-credentials.js';
import { useLtiCredentials } from '../api/get-lti-credentials.js';
import { useRevokeLtiCredentials } from '../api/revoke-lti-credentials.js';
import { LtiPlatformsSection } from './lti-platforms-section.js';

/** Designed: what a library manager (who may open the console, but not the credentials) sees. @internal */
export const ADMINS_ONLY_TEXT = 'Only the admins of this organisation can see and change the LTI credentials.';

function Row({ label, children, action }: { label: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Table.Tr style={{ height: TABLE_ROW_HEIGHT }}>
      <Table.Th scope="row" w={{ base: 96, sm: 160 }}>
        {label}
      </Table.Th>
      <Table.Td style={{ wordBreak: 'break-all' }}>{children}</Table.Td>
      <Table.Td w={{ base: 88, sm: 120 }}>{action}</Table.Td>
    </Table.Tr>
  );
}

const generatingSpinner = <Loader size="xs" aria-label="Generating credentials" />;
const notGenerated = (
  <Text size="sm" c="dimmed">
    {lmsMessages.notGenerated}
  </Text>
);

/** LMS Integration (spec §2, §4 "LTI credentials"): the organisation's LTI 1.1 key, secret and launch details. */
export function LmsPage() {
  const session = useSession();
  const { productName } = useConsoleConfig();
  const orgId = session.currentOrganisation?.id ?? '';
  const credentials = useLtiCredentials(orgId);
  const [confirming, setConfirming] = useState(false);
  const generateButton = useRef<HTMLButtonElement>(null);
  const revokeButton = useRef<HTMLButtonElement>(null);
  const focusGenerate = useRef(false);
  const focusRevoke = useRef(false);
  // Set on the first click, before the re-render that hides Generate: a double-click's second click asked again, and
  // the server's refusal (credentials exist) showed as a failure beside the new key.
  const generatingNow = useRef(false);
  const adminsOnly = credentials.error instanceof GraphqlError && hasErrorCode(credentials.error, 'admin_required');

  useEffect(() => {
    if (credentials.isError && !adminsOnly) notifyError(lmsMessages.loadFailed);
  }, [credentials.isError, adminsOnly]);

  const generate = useGenerateLtiCredentials(orgId, {
    onSuccess: () => {
      // Generate is gone (hidden while generating): keyboard focus goes to the Revoke button that replaces it.
      focusRevoke.current = true;
    },
    onError: () => {
      focusGenerate.current = true;
      notifyError(lmsMessages.generateFailed);
    },
    onSettled: () => {
      generatingNow.current = false;
    },
  });
  const revoke = useRevokeLtiCredentials(orgId, {
    onSuccess: () => {
      // The Revoke button is gone: keyboard focus goes to the Generate button that replaces it (effect below).
      focusGenerate.current = true;
    },
    onError: () => notifyError(lmsMessages.revokeFailed),
  });

  const data = credentials.data;
  const hasCredentials = Boolean(data?.consumerKey);
  const generating = generate.isPending;
  useEffect(() => {
    if (generating) return;
    if (!hasCredentials && focusGenerate.current && generateButton.current) {
      focusGenerate.current = false;
      generateButton.current.focus();
    } else if (hasCredentials && focusRevoke.current && revokeButton.current) {
      focusRevoke.current = false;
      revokeButton.current.focus();
    }
  }, [hasCredentials, generating]);

  const keyAction = generating ? null : hasCredentials ? (
    <Button size="xs" variant="light" color="red" ref={revokeButton} onClick={() => setConfirming(true)} loading={revoke.isPending}>
      Revoke
    </Button>
  ) : (
    <Button
      size="xs"
      ref={generateButton}
      onClick={() => {
        if (generatingNow.current) return;
        generatingNow.current = true;
        generate.mutate();
      }}
    >
      Generate
    </Button>
  );

  return (
    <>
      <PageTitle>LMS Integration</PageTitle>
      <Stack gap="md" maw={760}>
        <Text>
          Connect {productName} to your learning platform (Canvas, Moodle, Schoology, Brightspace, Blackboard or any other that supports LTI 1.3 or 1.1). Teachers and
          students who open {productName} from your learning platform need no account and no sign-in: they land in {productName} straight away, as a
          teacher or a student according to their role in the course.
        </Text>
        <Title order={2} size="h3">
          LTI Configuration
        </Title>
        <Text size="sm">LTI 1.1: the key and secret a platform signs launches with.</Text>
        {credentials.isPending ? (
          <Center py="xl" role="status">
            <Loader aria-label="Loading LTI credentials" />
          </Center>
        ) : adminsOnly ? (
          <Alert color="gray" variant="light">
            {ADMINS_ONLY_TEXT}
          </Alert>
        ) : credentials.isError || !data ? (
          <LoadError title={lmsMessages.loadFailed} onRetry={() => credentials.refetch()} />
        ) : (
          // 340: a 390 px phone leaves 350 px beside the page's padding; the table scrolls sideways only below that, in
          // a plain scrolling frame (Mantine's scroll area sized the table 10 px wider than its room).
          <Table.ScrollContainer minWidth={340} type="native">
            <Table aria-label="LTI Configuration" verticalSpacing="xs">
              <Table.Tbody>
                <Row label="Key" action={keyAction}>
                  {generating ? generatingSpinner : data.consumerKey ? (
                    <Group gap={4} wrap="nowrap">
                      <Code>{data.consumerKey}</Code>
                      <CopyValue value={data.consumerKey} label="key" />
                    </Group>
                  ) : (
                    notGenerated
                  )}
                </Row>
                <Row label="Secret">
                  {generating ? generatingSpinner : data.consumerSecret ? (
                    <Group gap={4} wrap="nowrap">
                      <Code>{data.consumerSecret}</Code>
                      <CopyValue value={data.consumerSecret} label="secret" />
                    </Group>
                  ) : (
                    notGenerated
                  )}
                </Row>
                <Row label="Launch url">
                  <Group gap={4} wrap="nowrap">
                    <Code>{data.launchUrl}</Code>
                    <CopyValue value={data.launchUrl} label="launch url" />
                  </Group>
                </Row>
                <Row label="Domain">
                  <Code>{data.domain}</Code>
                </Row>
                <Row label="Privacy">{LTI_PRIVACY_TEXT}</Row>
                <Row label="Open in a new tab">{LTI_NEW_TAB_TEXT}</Row>
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {data ? <Text size="sm">{ltiUsersCreatedText(data.usersCreated)}</Text> : null}
        {data ? (
          <Text size="sm">
            XML configuration with an LTI cartridge is also supported at{' '}
            <Anchor href={data.cartridgeUrl} target="_blank" rel="noreferrer">
              {data.cartridgeUrl}
            </Anchor>
            .
          </Text>
        ) : null}
        {/* LTI 1.3 registrations are the admins' too: a library manager sees the note above only. */}
        {data ? <LtiPlatformsSection orgId={orgId} /> : null}
      </Stack>
      {/* Asked before revoking (spec §4 "LTI credentials"): Confirm runs the revoke and closes; Cancel closes. */}
      <ConfirmDialog
        opened={confirming}
        title="Revoke LTI credentials"
        confirmLabel="Confirm"
        destructive
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          revoke.mutate();
        }}
      >
        Learning platforms that use this key and secret will no longer be able to launch, from now on. You can generate new credentials afterwards.
      </ConfirmDialog>
    </>
  );
}
