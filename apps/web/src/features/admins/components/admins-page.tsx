import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { adminMessages, DEFAULT_PAGE_SIZE, type AdminEntry, type PageSize } from '@quire/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { LoadError } from '../../../components/ui/load-error.js';
import { PageTitle } from '../../../components/ui/page-title.js';
import { TablePaging } from '../../../components/ui/table-paging.js';
import { SectionLoader } from '../../../components/ui/section-loader.js';
import { useConsoleConfig } from '../../../lib/console-config.js';
import { errorMessageOf, notifyError, notifyInfo } from '../../../lib/notify.js';
import { useSession } from '../../../lib/session/index.js';
import { useOrgAccess } from '../../../lib/access/use-org-access.js';
import { useDeleteAdmins } from '../api/delete-admins.js';
import { useAdmins, type AdminsListQuery } from '../api/get-admins.js';
import { useImportAdmins } from '../api/import-admins.js';
import { importedText, importFailureTexts, providerStaff, removeFailureText } from '../model/admin-emails.js';
import { AddAdminsDialog } from './add-admins-dialog.js';
import { AdminsTable } from './admins-table.js';
import { RemoveAdminsDialog } from './remove-admins-dialog.js';
import { ResetTwoStepDialog } from './reset-two-step-dialog.js';
import { useResetTwoStep } from '../api/reset-two-step.js';

const selectedText = (n: number) => (n === 1 ? '1 admin selected' : `${n} admins selected`);

/** Admin management (spec §2 "Admin dashboard"). */
export function AdminsPage() {
  const session = useSession();
  const config = useConsoleConfig();
  const orgId = session.currentOrganisation?.id ?? '';
  const [query, setQuery] = useState<AdminsListQuery>({ dir: 'asc', page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const admins = useAdmins(orgId, query);
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<{ admins: AdminEntry[]; fromSelection: boolean } | null>(null);
  const [resetting, setResetting] = useState<AdminEntry | null>(null);
  const [selected, setSelected] = useState<Map<string, AdminEntry>>(new Map());
  const rows = admins.data?.admins ?? [];
  const total = admins.data?.total ?? 0;
  // Only admins change admins; a library manager sees the list.
  const canChange = useOrgAccess(orgId).isAdmin;
  const own = (admin: AdminEntry) => admin.organisationId === orgId;
  const organisationName = session.currentOrganisation?.name ?? rows.find(own)?.organisationName ?? '';
  const staff = providerStaff(config);

  useEffect(() => {
    if (admins.isError) notifyError(adminMessages.loadFailed);
  }, [admins.isError]);

  const add = useImportAdmins(orgId, {
    onSuccess: (result) => {
      notifyInfo(importedText(result));
      setAdding(false);
      setAddError(null);
    },
    onError: (error) => {
      const { banner, field } = importFailureTexts(error);
      notifyError(banner);
      setAddError(field);
    },
  });

  const reset = useResetTwoStep(orgId, {
    onSuccess: () => {
      notifyInfo(`2-step verification reset for ${resetting?.email ?? 'the admin'}`);
      setResetting(null);
    },
    onError: (error) => notifyError(errorMessageOf(error, 'The reset did not work, please try again.')),
  });
  const remove = useDeleteAdmins(orgId, {
    onSuccess: (removed, { list }) => {
      notifyInfo(removed.length === 1 ? '1 admin removed' : `${removed.length} admins removed`);
      setSelected((old) => new Map([...old].filter(([key]) => !removed.includes(key))));
      setRemoving(null);
      // Removing yourself ends your access to the organisation: start again from the console's root.
      if (list.some((a) => a.isYou && removed.includes(a.email))) window.location.assign('/');
    },
    onError: (error) => {
      notifyError(removeFailureText(error));
      setRemoving(null);
    },
  });

  const toggle = (admin: AdminEntry, checked: boolean) =>
    setSelected((old) => {
      const next = new Map(old);
      if (checked) next.set(admin.email, admin);
      else next.delete(admin.email);
      return next;
    });

  return (
    <>
      <Group justify="space-between" align="flex-start">
        <PageTitle>Admin</PageTitle>
        {canChange ? (
          <Button leftSection={<IconUserPlus size={18} aria-hidden />} onClick={() => setAdding(true)}>
            Add admins
          </Button>
        ) : null}
      </Group>

      {canChange && selected.size > 0 ? (
        <Paper withBorder p="sm" mb="sm" role="region" aria-label="Bulk actions">
          <Group justify="space-between">
            <Text size="sm" fw={600} aria-live="polite">
              {selectedText(selected.size)}
            </Text>
            <Group gap="xs">
              <Button variant="default" size="xs" onClick={() => setSelected(new Map())}>
                Clear selection
              </Button>
              <Button color="red" size="xs" onClick={() => setRemoving({ admins: [...selected.values()], fromSelection: true })}>
                Remove admins
              </Button>
            </Group>
          </Group>
        </Paper>
      ) : null}

      {admins.isPending ? (
        <SectionLoader label="Loading admins" />
      ) : admins.isError ? (
        <LoadError title={adminMessages.loadFailed} onRetry={() => admins.refetch()} />
      ) : (
        <Stack gap={0}>
          <AdminsTable
            admins={rows}
            dir={query.dir}
            onSort={() => setQuery((q) => ({ ...q, dir: q.dir === 'asc' ? 'desc' : 'asc', page: 1 }))}
            selected={canChange ? new Set(selected.keys()) : undefined}
            onToggle={canChange ? toggle : undefined}
            onTogglePage={canChange ? (checked) => rows.filter(own).forEach((a) => toggle(a, checked)) : undefined}
            onRemove={canChange ? (admin) => setRemoving({ admins: [admin], fromSelection: false }) : undefined}
            onResetTwoStep={canChange ? setResetting : undefined}
            staff={staff}
            orgId={orgId}
          />
          <TablePaging
            total={total}
            page={query.page}
            pageSize={query.pageSize}
            onPage={(page) => setQuery((q) => ({ ...q, page }))}
            onPageSize={(pageSize: PageSize) => setQuery((q) => ({ ...q, pageSize, page: 1 }))}
          />
        </Stack>
      )}

      <AddAdminsDialog
        opened={adding}
        productName={config.productName}
        providerEmailDomain={config.providerEmailDomain}
        districtSsoDomains={config.districtSsoDomains}
        busy={add.isPending}
        serverError={addError}
        onAdd={(emails, idempotencyKey) => add.mutateAsync({ emails, idempotencyKey })}
        onClose={() => {
          setAdding(false);
          setAddError(null);
        }}
      />
      {resetting?.userId ? (
        <ResetTwoStepDialog
          admin={resetting}
          busy={reset.isPending}
          onConfirm={() => reset.mutateAsync({ userId: resetting.userId ?? '' })}
          onClose={() => setResetting(null)}
        />
      ) : null}
      {removing ? (
        <RemoveAdminsDialog
          admins={removing.admins}
          organisationName={organisationName}
          staff={staff}
          busy={remove.isPending}
          onConfirm={(idempotencyKey) => remove.mutateAsync({ list: removing.admins, idempotencyKey })}
          onClose={() => setRemoving(null)}
        />
      ) : null}
    </>
  );
}
