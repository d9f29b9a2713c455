import { Alert, Button, Code, Group, Loader, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { formatOrdinalDate, type GeneratedScimToken } from '@quire/core';
import { useRef, useState } from 'react';
import { CopyValue } from '../../../components/ui/copy-value.js';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.js';
import { LoadError } from '../../../components/ui/load-error.js';
import { PageTitle } from '../../../components/ui/page-title.js';
import { useSubmitOnce } from '../../../components/ui/use-submit-once.js';
import { SectionLoader } from '../../../components/ui/section-loader.js';
import { hasErrorCode, userFacingMessage } from '../../../lib/api/index.js';
import { useConsoleConfig } from '../../../lib/console-config.js';
import { notifyError } from '../../../lib/notify.js';
import { useSession } from '../../../lib/session/index.js';
import { useGenerateScimToken } from '../api/generate-scim-token.js';
import { useScimRequests } from '../api/get-scim-requests.js';
import { useScimSetup } from '../api/get-scim-setup.js';
import { useRevokeScimToken } from '../api/revoke-scim-token.js';
import { NewTokenDialog } from './new-token-dialog.js';

/** What a library manager (who may open the console, not its provisioning) sees. @internal */
export const SCIM_ADMINS_ONLY_TEXT = 'Only the admins of this organisation can set up provisioning.';

const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const when = (iso: string) => `${formatOrdinalDate(iso)}, ${time.format(new Date(iso))}`;

/**
 * Provisioning (SCIM), beside LMS Integration (docs/provisioning.md): the base URL to give an identity provider,
 * its tokens (generated here, shown once, revocable) and the provider's last 50 requests, to debug a set-up.
 */
export function ProvisioningPage() {
  const session = useSession();
  const { productName } = useConsoleConfig();
  const orgId = session.currentOrganisation?.id ?? '';
  const setup = useScimSetup(orgId);
  const adminsOnly = hasErrorCode(setup.error, 'admin_required');
  const requests = useScimRequests(orgId, setup.isSuccess);
  const [fresh, setFresh] = useState<GeneratedScimToken | null>(null);
  const [revoking, setRevoking] = useState<{ id: string; hint: string } | null>(null);
  const generateButton = useRef<HTMLButtonElement>(null);
  const once = useSubmitOnce();
  const revokeOnce = useSubmitOnce();

  const generate = useGenerateScimToken(orgId, {
    onSuccess: (token) => setFresh(token),
    onError: (error) => notifyError(userFacingMessage(error) ?? 'The SCIM token could not be generated'),
  });
  const revoke = useRevokeScimToken(orgId, {
    onSuccess: () => generateButton.current?.focus(),
    onError: (error) => notifyError(userFacingMessage(error) ?? 'The SCIM token could not be revoked'),
  });

  const tokens = setup.data?.tokens ?? [];
  return (
    <>
      <PageTitle>Provisioning (SCIM)</PageTitle>
      <Stack gap="md" maw={860}>
        <Text>
          Let your identity provider (Microsoft Entra ID, Okta or any other that supports SCIM 2.0) add teachers to {productName} as they join, keep
          their names and addresses up to date, and remove them as they leave. Removed teachers move to Inactive on the Teachers screen; their books
          stay theirs.
        </Text>
        {setup.isPending ? (
          <SectionLoader label="Loading provisioning" />
        ) : adminsOnly ? (
          <Alert color="gray" variant="light">
            {SCIM_ADMINS_ONLY_TEXT}
          </Alert>
        ) : setup.isError || !setup.data ? (
          <LoadError title="There was a problem loading provisioning" onRetry={() => setup.refetch()} />
        ) : (
          <>
            <Title order={2} size="h3">
              Connection
            </Title>
            <Stack gap={4}>
              <Text fw={600} id="scim-base-url-label">
                SCIM base URL
              </Text>
              <Group gap={4} wrap="nowrap" aria-labelledby="scim-base-url-label">
                <Code style={{ wordBreak: 'break-all' }}>{setup.data.baseUrl}</Code>
                <CopyValue value={setup.data.baseUrl} label="SCIM base URL" />
              </Group>
              <Text size="sm" c="dimmed">
                Give your identity provider this URL (Tenant URL in Entra ID, SCIM connector base URL in Okta) and a token below as the bearer token
                (Secret Token in Entra ID, HTTP Header in Okta).
              </Text>
            </Stack>

            <Title order={2} size="h3">
              Groups
            </Title>
            <Stack gap={4}>
              <Text>
                Members of a group named <strong>{setup.data.groups.admins}</strong> become admins of this organisation.
              </Text>
              <Text>
                Members of a group named <strong>{setup.data.groups.libraryManagers}</strong> become library managers. Teachers who have not signed up
                yet stay listed in the group and become library managers when they sign up.
              </Text>
              <Text size="sm" c="dimmed">
                Names are compared without case. Leaving the group takes back what it gave; other groups are kept and give no rights. Push or assign
                these groups in your identity provider to manage who runs {productName}.
              </Text>
            </Stack>

            <Title order={2} size="h3">
              Tokens
            </Title>
            <Group>
              <Button ref={generateButton} loading={once.busy} onClick={() => void once.submit((key) => generate.mutateAsync(key)).catch(() => undefined)}>
                Generate token
              </Button>
            </Group>
            {tokens.length === 0 ? (
              <Text size="sm">No tokens yet: generate one to connect an identity provider.</Text>
            ) : (
              <Table.ScrollContainer minWidth={340} type="native">
                <Table aria-label="SCIM tokens" verticalSpacing="xs">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Token</Table.Th>
                      <Table.Th>Created</Table.Th>
                      <Table.Th>Last used</Table.Th>
                      <Table.Th>
                        <VisuallyHidden>Actions</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {tokens.map((token) => (
                      <Table.Tr key={token.id}>
                        <Table.Td>
                          <Code>…{token.hint}</Code>
                        </Table.Td>
                        <Table.Td>
                          {when(token.createdAt)}
                          {token.createdBy ? <Text size="xs" c="dimmed">by {token.createdBy}</Text> : null}
                        </Table.Td>
                        <Table.Td>{token.lastUsedAt ? when(token.lastUsedAt) : 'Never'}</Table.Td>
                        <Table.Td>
                          <Button size="xs" variant="light" color="red" aria-label={`Revoke token ending in ${token.hint}`} onClick={() => setRevoking({ id: token.id, hint: token.hint })}>
                            Revoke
                          </Button>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}

            <Title order={2} size="h3">
              Recent requests
            </Title>
            {requests.isPending ? (
              <Loader size="sm" aria-label="Loading recent requests" />
            ) : requests.isError ? (
              <LoadError title="There was a problem loading the recent requests" onRetry={() => requests.refetch()} />
            ) : requests.data.requests.length === 0 ? (
              <Text size="sm">No SCIM requests yet. Once your identity provider connects, its last 50 requests are listed here.</Text>
            ) : (
              <Table.ScrollContainer minWidth={340} type="native">
                <Table aria-label="Recent SCIM requests" verticalSpacing="xs">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Time</Table.Th>
                      <Table.Th>Operation</Table.Th>
                      <Table.Th>User</Table.Th>
                      <Table.Th>Outcome</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {requests.data.requests.map((request, index) => (
                      <Table.Tr key={`${request.at}-${index}`}>
                        <Table.Td>{when(request.at)}</Table.Td>
                        <Table.Td>{request.operation}</Table.Td>
                        <Table.Td style={{ wordBreak: 'break-all' }}>{request.user ?? '—'}</Table.Td>
                        <Table.Td>
                          {request.status} {request.outcome}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            <Group>
              <Button variant="default" size="xs" onClick={() => void requests.refetch()}>
                Refresh requests
              </Button>
            </Group>
          </>
        )}
      </Stack>
      <NewTokenDialog token={fresh} onClose={() => setFresh(null)} />
      {/* Asked before a SCIM token is revoked: the provider using it stops provisioning at once. */}
      <ConfirmDialog
        opened={revoking !== null}
        title="Revoke SCIM token"
        confirmLabel="Revoke"
        destructive
        onClose={() => setRevoking(null)}
        onConfirm={() => {
          const target = revoking;
          setRevoking(null);
          if (target) void revokeOnce.submit((key) => revoke.mutateAsync({ tokenId: target.id, idempotencyKey: key })).catch(() => undefined);
        }}
      >
        The identity provider that uses the token ending in {revoking?.hint} will no longer be able to create, update or remove teachers, from now
        on.
      </ConfirmDialog>
    </>
  );
}
