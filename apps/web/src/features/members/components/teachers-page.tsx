import { Button, Group, Tabs, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { importMessages, type TeacherStatus } from '@quire/core';
import { IconSearch, IconUserPlus } from '@tabler/icons-react';
import { usePrefetchQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { LoadError } from '../../../components/ui/load-error.js';
import { PageTitle } from '../../../components/ui/page-title.js';
import { useConsoleConfig } from '../../../lib/console-config.js';
import { errorMessageOf, notifyError, notifyInfo } from '../../../lib/notify.js';
import { useOrgAccess } from '../../../lib/access/use-org-access.js';
import { organisationsUnder } from '../../../lib/access/organisations-under.js';
import { useSession } from '../../../lib/session/index.js';
import { teachersQueryOptions } from '../api/get-teachers.js';
import { useTeachersOrganisation } from '../api/get-teachers-organisation.js';
import { INITIAL_LIST_QUERY } from '../hooks/use-teachers-list.js';
import { teacherScreenAccess } from '../model/teacher-access.js';
import { importedText } from '../model/teacher-display.js';
import { ImportTeachersDialog } from './import-teachers-dialog.js';
import { TEACHERS_LOAD_FAILED, TeachersPanel } from './teachers-panel.js';
import { TeachersLoading } from './teachers-loading.js';

/** How long typing pauses before the search goes to the server. */
const SEARCH_DEBOUNCE_MS = 300;

/** Teacher management (spec §2 "Teachers"). */
export function TeachersPage() {
  const session = useSession();
  const config = useConsoleConfig();
  const orgId = session.currentOrganisation?.id ?? '';
  const organisation = useTeachersOrganisation(orgId);
  const orgAccess = useOrgAccess(orgId);
  // A district (organisations under it that the user may open, as its admin may): every school's teachers, with a
  // School column and filter (docs/districts.md, "District views").
  const below = useMemo(() => organisationsUnder(session.organisations, orgId), [session.organisations, orgId]);
  const view = below.length > 0 ? ('district' as const) : undefined;
  const district = view !== undefined && orgAccess.isAdmin;
  const schools = useMemo(
    () => (district ? [{ id: orgId, name: session.currentOrganisation?.name ?? '' }, ...below.map((o) => ({ id: o.id, name: o.name }))] : undefined),
    [district, orgId, session.currentOrganisation?.name, below],
  );
  // The first page loads alongside the organisation, not after it.
  usePrefetchQuery(teachersQueryOptions(orgId, 'active', { ...INITIAL_LIST_QUERY, ...(view ? { view } : {}) }));
  const [tab, setTab] = useState<TeacherStatus>('active');
  const [searchText, setSearchText] = useState('');
  const [search] = useDebouncedValue(searchText, SEARCH_DEBOUNCE_MS);
  const [importing, setImporting] = useState(false);

  const access =
    organisation.data && !orgAccess.isPending
      ? {
          ...teacherScreenAccess({ organisation: organisation.data, isAdmin: orgAccess.isAdmin, userEmail: session.user?.email, providerEmailDomain: config.providerEmailDomain }),
          ...(district ? { districtId: orgId } : {}),
        }
      : null;
  // 'Import Teachers' only without a domain licence, and only for admins.
  const canImport = access !== null && !access.readOnly && !access.isDomain;

  return (
    <>
      <Group justify="space-between" align="flex-start">
        <div>
          <PageTitle>Teachers</PageTitle>
          {schools ? (
            <Text size="sm" c="dimmed" mt={-8} mb="sm">
              {schools.length === 2
                ? `Teachers of ${schools[0]!.name} and its school`
                : `Teachers of ${schools[0]!.name} and its ${schools.length - 1} schools`}
            </Text>
          ) : null}
        </div>
        {canImport ? (
          <Button leftSection={<IconUserPlus size={18} aria-hidden />} onClick={() => setImporting(true)}>
            Import Teachers
          </Button>
        ) : null}
      </Group>

      <TextInput
        aria-label="Search teachers"
        placeholder="Search by email or name"
        leftSection={<IconSearch size={16} aria-hidden />}
        value={searchText}
        onChange={(event) => setSearchText(event.currentTarget.value)}
        type="search"
        maw={420}
        mb="md"
      />

      {organisation.isPending ? (
        <TeachersLoading />
      ) : organisation.isError || !access ? (
        <LoadError title={TEACHERS_LOAD_FAILED} onRetry={() => organisation.refetch()}>
          {errorMessageOf(organisation.error, '')}
        </LoadError>
      ) : (
        <Tabs value={tab} onChange={(value) => setTab(value === 'inactive' ? 'inactive' : 'active')}>
          <Tabs.List>
            <Tabs.Tab value="active">Active</Tabs.Tab>
            <Tabs.Tab value="inactive">Inactive</Tabs.Tab>
          </Tabs.List>
          {(['active', 'inactive'] as const).map((status) => (
            <Tabs.Panel key={status} value={status}>
              {tab === status ? (
                <TeachersPanel
                  orgId={orgId}
                  status={status}
                  search={search}
                  searchPending={search !== searchText}
                  organisation={organisation.data}
                  access={access}
                  productName={config.productName}
                  schools={schools}
                />
              ) : null}
            </Tabs.Panel>
          ))}
        </Tabs>
      )}

      {canImport && organisation.data ? (
        <ImportTeachersDialog
          opened={importing}
          orgId={orgId}
          licenses={organisation.data.licenses}
          onClose={() => setImporting(false)}
          onImported={(result) => {
            setImporting(false);
            notifyInfo(importedText(result));
            if (result.licensesNotGranted.length > 0) notifyError(importMessages.licensesNotGranted);
          }}
        />
      ) : null}
    </>
  );
}
