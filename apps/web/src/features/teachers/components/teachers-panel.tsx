import { Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { checkAssignable, teacherMessages, type OrganisationLicense } from '@quire/core';
import { IconDownload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { LoadError } from '../../../components/ui/load-error.js';
import { newIdempotencyKey } from '../../../components/ui/use-submit-once.js';
import { errorMessageOf, notifyError } from '../../../lib/notify.js';
import { fetchTeachersCsv, saveFile, type ExportScope } from '../api/export-teachers.js';
import type { TeacherStatus } from '../api/get-teachers.js';
import type { TeachersOrganisation } from '../api/get-teachers-organisation.js';
import { refreshAfterChange } from '../api/refresh-after-change.js';
import type { TeacherEmailKind } from '../api/teacher-email.js';
import type { Member } from '../api/teacher-schemas.js';
import { useSelection } from '../hooks/use-selection.js';
import { useTeacherMutations } from '../hooks/use-teacher-mutations.js';
import { useTeachersList } from '../hooks/use-teachers-list.js';
import { bulkRemoveTeacherOffered, useTeacherLibraryDialogs, type TeacherLibraryRequest } from '../model/library-dialogs.js';
import { bulkActionOptions, type BulkAction, type TeacherScreenAccess } from '../model/teacher-access.js';
import { BulkActionsBar } from './bulk-actions-bar.js';
import { ExportCsvDialog } from './export-csv-dialog.js';
import { LicenseChangeDialog } from './license-change-dialog.js';
import { SwitchToStudentDialog } from './switch-to-student-dialog.js';
import { TablePaging } from './table-paging.js';
import { TeacherEmailDialog } from './teacher-email-dialog.js';
import { TeacherRowMenu, type RowAction } from './teacher-row-menu.js';
import { TeachersTable } from './teachers-table.js';

/** Designed (not in the catalogue): the list or the organisation could not be loaded. */
export const TEACHERS_LOAD_FAILED = 'Something went wrong loading the teachers';

type Dialog =
  | { kind: 'license'; license: OrganisationLicense | null; members: Member[]; fromSelection: boolean }
  | { kind: 'email'; emailKind: TeacherEmailKind; members: Member[]; fromSelection: boolean }
  | { kind: 'switch'; members: Member[]; fromSelection: boolean }
  | { kind: 'export' }
  | { kind: 'library'; request: TeacherLibraryRequest; fromSelection: boolean };

export interface TeachersPanelProps {
  orgId: string;
  status: TeacherStatus;
  search: string;
  organisation: TeachersOrganisation;
  access: TeacherScreenAccess;
  productName: string;
}

/** One tab of the Teachers screen: the server-paged table, its menus, the bulk bar and the dialogs. */
export function TeachersPanel({ orgId, status, search, organisation, access, productName }: TeachersPanelProps) {
  const queryClient = useQueryClient();
  const { query, result, sortBy, setPage, changePageSize } = useTeachersList(orgId, status, search);
  const selection = useSelection();
  const mutations = useTeacherMutations(orgId);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const libraryDialogs = useTeacherLibraryDialogs();
  const [exporting, setExporting] = useState(false);
  const licenses = organisation.licenses;
  // Inactive teachers cannot be selected; read-only mode changes nothing.
  const selectable = status === 'active' && !access.readOnly;
  const members = result.data?.members ?? [];
  const total = result.data?.total ?? 0;

  /** The §5 licence rule, checked before asking the server (which checks it again). */
  const startAssign = (license: OrganisationLicense, chosen: Member[], fromSelection: boolean) => {
    const current = licenses.find((l) => l.id === license.id) ?? license;
    const refusal = checkAssignable({
      license: current,
      selectedMemberIds: chosen.map((m) => m.id),
      membersAlreadyOnLicense: chosen.filter((m) => m.license?.id === license.id).map((m) => m.id),
    });
    if (refusal) notifyError(refusal);
    else setDialog({ kind: 'license', license: current, members: chosen, fromSelection });
  };

  const onRowAction = (member: Member, action: RowAction) => {
    switch (action.kind) {
      case 'assign':
        return startAssign(action.license, [member], false);
      case 'remove-license':
        return setDialog({ kind: 'license', license: null, members: [member], fromSelection: false });
      case 'welcome':
      case 'certification':
        return setDialog({ kind: 'email', emailKind: action.kind === 'welcome' ? 'WELCOME' : 'CERTIFICATION', members: [member], fromSelection: false });
      case 'role':
        return mutations.setRole.mutate({ memberId: member.id, role: action.role });
      case 'switch-to-student':
        return setDialog({ kind: 'switch', members: [member], fromSelection: false });
      case 'mark-active':
        return mutations.markActive.mutate({ memberIds: [member.id], idempotencyKey: newIdempotencyKey() });
      case 'view-profile':
      case 'manage-libraries':
      case 'remove-teacher': {
        const kind = action.kind === 'view-profile' ? 'view' : action.kind === 'manage-libraries' ? 'manage' : 'remove';
        return setDialog({ kind: 'library', request: { kind, members: [member] }, fromSelection: false });
      }
    }
  };

  const onBulk = (action: BulkAction) => {
    const chosen = selection.members;
    switch (action.kind) {
      case 'assign':
        return startAssign(action.license, chosen, true);
      case 'remove-license':
        return setDialog({ kind: 'license', license: null, members: chosen, fromSelection: true });
      case 'welcome':
      case 'certification':
        return setDialog({ kind: 'email', emailKind: action.kind === 'welcome' ? 'WELCOME' : 'CERTIFICATION', members: chosen, fromSelection: true });
      case 'switch-to-student':
        return setDialog({ kind: 'switch', members: chosen, fromSelection: true });
      case 'remove-teacher':
        return setDialog({ kind: 'library', request: { kind: 'remove', members: chosen }, fromSelection: true });
    }
  };

  // Bulk 'Remove teacher' comes with the teacher-libraries dialogs (see model/library-dialogs.ts).
  const bulkOptions = [
    ...bulkActionOptions(licenses, access),
    ...(libraryDialogs && bulkRemoveTeacherOffered(access, selection.members)
      ? [{ value: 'remove-teacher', label: 'Remove teacher', action: { kind: 'remove-teacher' } as const }]
      : []),
  ];

  const confirmLicenseChange = async (license: OrganisationLicense | null, chosen: Member[], fromSelection: boolean, idempotencyKey: string) => {
    const memberIds = chosen.map((m) => m.id);
    try {
      if (license) await mutations.assign.mutateAsync({ licenseId: license.id, memberIds, idempotencyKey });
      else await mutations.remove.mutateAsync({ memberIds, idempotencyKey });
      if (fromSelection) selection.clear();
    } finally {
      setDialog(null);
    }
  };

  const runExport = async (scope: ExportScope) => {
    setExporting(true);
    try {
      saveFile(await fetchTeachersCsv(orgId, status, query, scope), 'teachers.csv');
      setDialog(null);
    } catch (error) {
      notifyError(errorMessageOf(error, 'The teachers could not be exported'));
    } finally {
      setExporting(false);
    }
  };

  const onExportClick = () => {
    // The choice is offered only when there is more than the page shown.
    if (total > query.pageSize) setDialog({ kind: 'export' });
    else void runExport('all');
  };

  return (
    <Stack gap={0} pt="md">
      {/* The whole list at once is for admins: library managers read it page by page (docs/security.md). */}
      {access.readOnly ? null : (
        <Group justify="flex-end" mb="sm">
          <Button variant="default" leftSection={<IconDownload size={18} aria-hidden />} onClick={onExportClick} loading={exporting && dialog === null} disabled={total === 0}>
            Export as CSV
          </Button>
        </Group>
      )}

      {selectable && selection.selected.size > 0 ? (
        <BulkActionsBar count={selection.selected.size} options={bulkOptions} onApply={onBulk} onClear={selection.clear} />
      ) : null}

      {result.isPending ? (
        <Center py="xl" role="status">
          <Loader aria-label="Loading teachers" />
        </Center>
      ) : result.isError ? (
        <LoadError title={TEACHERS_LOAD_FAILED} onRetry={() => result.refetch()}>
          {errorMessageOf(result.error, '')}
        </LoadError>
      ) : total === 0 ? (
        <Stack gap={4} py="lg" role="status">
          {search.trim() || status === 'inactive' ? (
            <>
              <Text fw={600}>{teacherMessages.notFound}</Text>
              {search.trim() ? <Text size="sm" c="dimmed">Review your search criteria and try again.</Text> : null}
            </>
          ) : (
            <Text fw={600}>{teacherMessages.noTeachers}</Text>
          )}
        </Stack>
      ) : (
        <>
          <TeachersTable
            members={members}
            status={status}
            access={access}
            productName={productName}
            sort={query.sort}
            dir={query.dir}
            onSort={sortBy}
            selected={selectable ? selection.ids : undefined}
            onToggle={selectable ? selection.toggle : undefined}
            onTogglePage={selectable ? (checked) => selection.togglePage(members, checked) : undefined}
            renderActions={access.readOnly ? undefined : (member) => <TeacherRowMenu member={member} licenses={licenses} access={access} onAction={onRowAction} />}
          />
          <TablePaging total={total} page={query.page} pageSize={query.pageSize} onPage={setPage} onPageSize={changePageSize} />
        </>
      )}

      {dialog?.kind === 'license' ? (
        <LicenseChangeDialog
          license={dialog.license}
          members={dialog.members}
          busy={mutations.assign.isPending || mutations.remove.isPending}
          onConfirm={(key) => confirmLicenseChange(dialog.license, dialog.members, dialog.fromSelection, key)}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === 'email' ? (
        <TeacherEmailDialog
          orgId={orgId}
          kind={dialog.emailKind}
          recipients={dialog.members}
          onClose={() => setDialog(null)}
          onSent={() => {
            if (dialog.fromSelection) selection.clear();
          }}
        />
      ) : null}
      {dialog?.kind === 'switch' ? (
        <SwitchToStudentDialog
          orgId={orgId}
          members={dialog.members}
          onClose={() => setDialog(null)}
          onFinished={(switched) => {
            for (const id of switched) {
              const member = selection.selected.get(id);
              if (member) selection.toggle(member, false);
            }
            void refreshAfterChange(queryClient, orgId);
          }}
        />
      ) : null}
      {dialog?.kind === 'library' && libraryDialogs
        ? libraryDialogs.render(dialog.request, {
            onClose: () => setDialog(null),
            onDone: () => {
              if (dialog.fromSelection) selection.clear();
              void refreshAfterChange(queryClient, orgId);
            },
          })
        : null}
      {dialog?.kind === 'export' ? (
        <ExportCsvDialog pageCount={members.length} total={total} busy={exporting} onExport={(scope) => void runExport(scope)} onClose={() => setDialog(null)} />
      ) : null}
    </Stack>
  );
}
