import { Alert, Button, Center, Code, Group, Loader, Stack, Table, Text, Textarea, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { MODAL_WIDTH_DEFAULT, type LtiPlatform, type LtiPlatformInput, type LtiRegistrationLink } from '@quire/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { CopyValue } from '../../../components/ui/copy-value.js';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.js';
import { Dialog } from '../../../components/ui/dialog.js';
import { LoadError } from '../../../components/ui/load-error.js';
import { userFacingMessage } from '../../../lib/api/index.js';
import { notifyError } from '../../../lib/notify.js';
import { useLtiPlatforms, useLtiRegistrationLink, useRemoveLtiPlatform, useSaveLtiPlatform } from '../api/lti-platforms.js';
import { queryKeys } from '../../../lib/query-keys.js';

const LOAD_FAILED = 'There was a problem getting the LTI 1.3 platforms.';
const REMOVE_FAILED = 'The learning platform could not be removed. Please try again.';
const REGISTRATION_FAILED = 'A registration URL could not be made. Please try again.';

function Copyable({ value, label }: { value: string; label: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Code>{value}</Code>
      <CopyValue value={value} label={label} />
    </Group>
  );
}

const EMPTY: LtiPlatformInput = { name: '', issuer: '', clientId: '', deploymentIds: [], authEndpoint: '', tokenEndpoint: '', jwksUrl: '' };

/** The fields of one platform, as the admin copies them from the learning platform. */
const FIELDS: Array<{ key: Exclude<keyof LtiPlatformInput, 'deploymentIds'>; label: string; description?: string; placeholder?: string }> = [
  { key: 'name', label: 'Name', description: 'How you call this platform here', placeholder: 'Canvas' },
  { key: 'issuer', label: 'Issuer', placeholder: 'https://canvas.instructure.com' },
  { key: 'clientId', label: 'Client ID' },
  { key: 'authEndpoint', label: 'OIDC authorisation endpoint', placeholder: 'https://lms.example.edu/api/lti/authorize_redirect' },
  { key: 'tokenEndpoint', label: 'Access token endpoint', placeholder: 'https://lms.example.edu/login/oauth2/token' },
  { key: 'jwksUrl', label: 'JWKS URL', description: 'Where the platform publishes its public keys', placeholder: 'https://lms.example.edu/api/lti/security/jwks' },
];

function PlatformDialog({ orgId, platform, opened, onClose }: { orgId: string; platform: LtiPlatform | null; opened: boolean; onClose: () => void }) {
  const [values, setValues] = useState<LtiPlatformInput>(platform ?? EMPTY);
  const [deployments, setDeployments] = useState((platform?.deploymentIds ?? []).join('\n'));
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveLtiPlatform(orgId, {
    onSuccess: () => onClose(),
    onError: (error) => setProblem(userFacingMessage(error) ?? 'The platform could not be saved. Please try again.'),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    setProblem(null);
    const deploymentIds = deployments.split(/[\n,]/).map((d) => d.trim()).filter(Boolean);
    save.mutate({ id: platform?.id, input: { ...values, deploymentIds } });
  };
  return (
    <Dialog opened={opened} onClose={onClose} title={platform ? `Edit ${platform.name}` : 'Add a learning platform'} size={MODAL_WIDTH_DEFAULT}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {FIELDS.map((field) => (
            <TextInput
              key={field.key}
              label={field.label}
              description={field.description}
              placeholder={field.placeholder}
              required
              value={values[field.key]}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setValues((v) => ({ ...v, [field.key]: value }));
              }}
              data-autofocus={field.key === 'name' ? true : undefined}
            />
          ))}
          <Textarea
            label="Deployment IDs"
            description="One per line: where the tool is installed in the platform"
            required
            autosize
            minRows={2}
            value={deployments}
            onChange={(event) => setDeployments(event.currentTarget.value)}
          />
          {problem ? (
            <Alert color="red" role="alert">
              {problem}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}

/**
 * The registration URL for LTI Dynamic Registration: pasted into the platform, which registers the tool itself. The
 * platform appears in the list when the registration is done (read again when the dialog closes).
 */
function RegistrationDialog({ link, onClose }: { link: LtiRegistrationLink | null; onClose: () => void }) {
  const until = link ? new Date(link.expiresAt).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : '';
  return (
    <Dialog opened={link !== null} onClose={onClose} title="Register with a learning platform" size={MODAL_WIDTH_DEFAULT}>
      <Stack>
        <Text size="sm">
          Paste this registration URL into your learning platform. In Moodle: <em>Site administration → Plugins → External tool → Manage tools</em>, paste
          it into <em>Tool URL</em> and choose <em>Add LTI Advantage</em>. In Canvas: <em>Admin → Developer Keys → + Developer Key → LTI Registration</em>.
          The platform then registers the tool with this organisation.
        </Text>
        {link ? (
          <div style={{ wordBreak: 'break-all' }}>
            <Copyable value={link.url} label="registration URL" />
          </div>
        ) : null}
        <Text size="sm">It works once, until {until}. When your platform says it is done, close this window: the platform appears in the list.</Text>
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            Done
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}

function RemoveDialog({ platform, onConfirm, onClose }: { platform: LtiPlatform | null; onConfirm: () => void; onClose: () => void }) {
  return (
    <ConfirmDialog opened={platform !== null} onClose={onClose} onConfirm={onConfirm} title="Remove learning platform" confirmLabel="Remove" destructive>
      Launches from {platform?.name ?? 'this platform'} will be refused from now on. People keep the accounts their launches made.
    </ConfirmDialog>
  );
}

/** LMS Integration, LTI 1.3: the tool's values to paste into a platform, and the organisation's registered platforms. */
export function LtiPlatformsSection({ orgId }: { orgId: string }) {
  const query = useLtiPlatforms(orgId);
  const [editing, setEditing] = useState<{ platform: LtiPlatform | null } | null>(null);
  const [removing, setRemoving] = useState<LtiPlatform | null>(null);
  const remove = useRemoveLtiPlatform(orgId, { onError: () => notifyError(REMOVE_FAILED) });
  const queryClient = useQueryClient();
  const [registration, setRegistration] = useState<LtiRegistrationLink | null>(null);
  const register = useLtiRegistrationLink(orgId, { onSuccess: (link) => setRegistration(link), onError: () => notifyError(REGISTRATION_FAILED) });
  const data = query.data;
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        LTI 1.3
      </Title>
      <Text size="sm">
        New installations of Canvas, Moodle, Schoology, Brightspace and Blackboard use LTI 1.3. Paste these values into your learning platform, then
        add the platform below with the values it gives you. Or, where your platform accepts a registration URL (Moodle, Canvas), register with it
        and let it fill them in.
      </Text>
      {query.isPending ? (
        <Center py="md" role="status">
          <Loader aria-label="Loading LTI 1.3 platforms" />
        </Center>
      ) : query.isError || !data ? (
        <LoadError title={LOAD_FAILED} onRetry={() => query.refetch()} />
      ) : (
        <>
          <Table.ScrollContainer minWidth={340} type="native">
            <Table aria-label="Tool values for LTI 1.3" verticalSpacing="xs">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th scope="row" w={{ base: 96, sm: 200 }}>
                    OIDC login initiation URL
                  </Table.Th>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    <Copyable value={data.loginUrl} label="login initiation URL" />
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th scope="row">Redirect URI and target link URI</Table.Th>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    <Copyable value={data.launchUrl} label="redirect URI" />
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th scope="row">Public JWKS URL</Table.Th>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    <Copyable value={data.jwksUrl} label="public JWKS URL" />
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th scope="row">Domain</Table.Th>
                  <Table.Td>
                    <Code>{data.domain}</Code>
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Title order={3} size="h4">
            Learning platforms
          </Title>
          {data.platforms.length === 0 ? (
            <Text size="sm" c="dimmed">
              No learning platform is registered for LTI 1.3 yet.
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={340} type="native">
              <Table aria-label="Learning platforms" verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Platform</Table.Th>
                    <Table.Th>Client ID and deployments</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.platforms.map((platform) => (
                    <Table.Tr key={platform.id}>
                      <Table.Td style={{ wordBreak: 'break-all' }}>
                        <Text size="sm" fw={600}>
                          {platform.name}
                        </Text>
                        <Text size="xs">{platform.issuer}</Text>
                      </Table.Td>
                      <Table.Td style={{ wordBreak: 'break-all' }}>
                        <Text size="sm">{platform.clientId}</Text>
                        <Text size="xs">{platform.deploymentIds.join(', ')}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <Button size="xs" variant="light" onClick={() => setEditing({ platform })} aria-label={`Edit ${platform.name}`}>
                            Edit
                          </Button>
                          <Button size="xs" variant="light" color="red" onClick={() => setRemoving(platform)} aria-label={`Remove ${platform.name}`}>
                            Remove
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Group>
            <Button onClick={() => setEditing({ platform: null })}>Add platform</Button>
            <Button
              variant="light"
              loading={register.isPending}
              onClick={() => {
                if (!register.isPending) register.mutate();
              }}
            >
              Register with a platform
            </Button>
          </Group>
        </>
      )}
      {editing ? <PlatformDialog key={editing.platform?.id ?? 'new'} orgId={orgId} platform={editing.platform} opened onClose={() => setEditing(null)} /> : null}
      <RegistrationDialog
        link={registration}
        onClose={() => {
          setRegistration(null);
          void queryClient.invalidateQueries({ queryKey: queryKeys.ltiPlatforms(orgId) });
        }}
      />
      <RemoveDialog
        platform={removing}
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) remove.mutate(removing.id);
          setRemoving(null);
        }}
      />
    </Stack>
  );
}
