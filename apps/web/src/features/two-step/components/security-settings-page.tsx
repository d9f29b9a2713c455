import { Alert, Center, Loader, Stack, Switch, Text } from '@mantine/core';
import { useParams } from 'react-router';
import { LoadError } from '../../../components/ui/load-error.js';
import { PageTitle } from '../../../components/ui/page-title.js';
import { useOrgAccess } from '../../../lib/access/use-org-access.js';
import { errorMessageOf, notifyError, notifyInfo } from '../../../lib/notify.js';
import { useSession } from '../../../lib/session/index.js';
import { useTwoStepPolicy } from '../api/get-two-step-policy.js';
import { useSetTwoStepPolicy } from '../api/set-two-step-policy.js';
import { SecuritySection } from './security-section.js';

/**
 * /{orgId}/security (Settings → Security): 'Require 2-step verification for admins'. Admins change it; a district's
 * requirement covers its schools and shows there as set above, read-only.
 */
export function SecuritySettingsPage() {
  const { orgId = '' } = useParams();
  const { currentOrganisation } = useSession();
  const access = useOrgAccess(orgId);
  const policy = useTwoStepPolicy(orgId);
  const change = useSetTwoStepPolicy(orgId, {
    onSuccess: (saved) => notifyInfo(saved.requireForAdmins ? '2-step verification is now required for admins.' : '2-step verification is no longer required for admins.'),
    onError: (error) => notifyError(errorMessageOf(error, 'The setting could not be saved, please try again.')),
  });

  const body = (() => {
    if (policy.isPending) {
      return (
        <Center py="md" role="status">
          <Loader aria-label="Loading the setting" />
        </Center>
      );
    }
    if (policy.isError) return <LoadError title="The setting could not be loaded" onRetry={() => policy.refetch()} />;
    const { requireForAdmins, requiredByAbove } = policy.data;
    const shown = change.isPending ? (change.variables?.requireForAdmins ?? requireForAdmins) : requireForAdmins;
    return (
      <Stack gap="sm">
        <Switch
          label="Require 2-step verification for admins"
          description={`Every admin of ${currentOrganisation?.name ?? 'this organisation'} and of the organisations under it must turn on 2-step verification before reaching any screen. Admins signed in now are asked on their next step.`}
          checked={shown || requiredByAbove}
          disabled={!access.isAdmin || requiredByAbove || change.isPending}
          onChange={(event) => change.mutate({ requireForAdmins: event.currentTarget.checked })}
        />
        {requiredByAbove ? (
          <Alert color="blue" variant="light" role="note">
            Your district requires 2-step verification for the admins of its schools, this one included. It can be changed only at the district.
          </Alert>
        ) : null}
        {!access.isAdmin && !access.isPending ? (
          <Text size="sm" c="dimmed">
            Only admins can change this setting.
          </Text>
        ) : null}
      </Stack>
    );
  })();

  return (
    <>
      <PageTitle>Security settings</PageTitle>
      <SecuritySection headingId="policy-heading" title="2-step verification" maw={720}>
        {body}
      </SecuritySection>
    </>
  );
}
