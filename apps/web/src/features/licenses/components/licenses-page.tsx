import { Anchor, Button, Group, Paper, Text } from '@mantine/core';
import { organisationMessages } from '@quire/core';
import { IconMail } from '@tabler/icons-react';
import { useContext } from 'react';
import { Link, useNavigate } from 'react-router';
import { LoadError } from '../../../components/ui/load-error.js';
import { PageTitle } from '../../../components/ui/page-title.js';
import { SectionLoader } from '../../../components/ui/section-loader.js';
import { paths } from '../../../config/paths.js';
import { useConsoleConfig } from '../../../lib/console-config.js';
import { SessionControlsContext, useSession } from '../../../lib/session/index.js';
import { useOrgAccess } from '../../../lib/access/use-org-access.js';
import { isDistrictLicense, useOrganisationLicenses, visibleLicenses } from '../api/get-organisation-licenses.js';
import { DistrictAllocations } from './district-allocations.js';
import { LicensesTable } from './licenses-table.js';
import { OrganisationNamePanel } from './organisation-name-panel.js';

/** The licence dashboard, the organisation's home (spec §2 "Licence dashboard"). */
export function LicensesPage() {
  const session = useSession();
  const controls = useContext(SessionControlsContext);
  const config = useConsoleConfig();
  const navigate = useNavigate();
  const orgId = session.currentOrganisation?.id ?? '';
  const licenses = useOrganisationLicenses(orgId);
  const access = useOrgAccess(orgId);

  const onRenamed = () => {
    // The navigation and the organisation picker show the name too.
    session.selectOrganisation(orgId);
    void controls?.loadOrganisations().catch(() => undefined);
  };

  return (
    <>
      <PageTitle>Licenses</PageTitle>

      <Paper withBorder p="md" mb="lg">
        <Group justify="space-between" gap="sm">
          <Text>Need more licenses? Contact us for a quote</Text>
          <Button component="a" href={`mailto:${config.salesEmail}`} leftSection={<IconMail size={18} aria-hidden />}>
            Contact us
          </Button>
        </Group>
      </Paper>

      <Group align="flex-end" justify="space-between" gap="md" mb="lg" wrap="wrap">
        <div style={{ flex: '1 1 320px' }}>
          <OrganisationNamePanel
            orgId={orgId}
            name={licenses.data?.name ?? session.currentOrganisation?.name ?? ''}
            readOnly={!licenses.data || !access.isAdmin}
            explainReadOnly={Boolean(licenses.data)}
            onRenamed={onRenamed}
          />
        </div>
        {session.organisations.length > 1 ? (
          <Button variant="default" mb="lg" onClick={() => navigate(paths.signIn.organisation())}>
            Switch organisation
          </Button>
        ) : null}
      </Group>

      {licenses.isPending ? (
        <SectionLoader label="Loading licenses" />
      ) : licenses.isError ? (
        <LoadError title={organisationMessages.licensesLoadFailed} onRetry={() => licenses.refetch()} />
      ) : visibleLicenses(licenses.data).length === 0 ? (
        <Text py="lg">{organisationMessages.noLicenses}</Text>
      ) : (
        <LicensesTable licenses={visibleLicenses(licenses.data)} />
      )}

      {licenses.data && licenses.data.licenses.some(isDistrictLicense) ? (
        <DistrictAllocations orgId={orgId} licenses={licenses.data.licenses.filter(isDistrictLicense)} canChange={access.isAdmin} />
      ) : null}

      <Text mt="lg" size="sm">
        Assign licenses to your teachers on the{' '}
        <Anchor component={Link} to={paths.org.teachers(orgId)}>
          Teachers
        </Anchor>{' '}
        page.
      </Text>
    </>
  );
}
