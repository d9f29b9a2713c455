import { Button, Group, Stack, Text } from '@mantine/core';
import { teacherMessages, type TeacherStatus } from '@quire/core';
import { IconDownload } from '@tabler/icons-react';
import { useEffect } from 'react';
import { LoadError } from '../../../components/ui/load-error.js';
import { TablePaging } from '../../../components/ui/table-paging.js';
import { errorMessageOf } from '../../../lib/notify.js';
import { listFilterOf } from '../api/get-teachers.js';
import type { TeachersOrganisation } from '../api/get-teachers-organisation.js';
import { useSelection } from '../hooks/use-selection.js';
import { useTeacherDialogs } from '../hooks/use-teacher-dialogs.js';
import { useTeachersList } from '../hooks/use-teachers-list.js';
import type { TeacherScreenAccess } from '../model/teacher-access.js';
import { BulkActionsBar } from './bulk-actions-bar.js';
import { TeacherFiltersBar } from './teacher-filters.js';
import { TeacherRowMenu } from './teacher-row-menu.js';
import { TeachersTable } from './teachers-table.js';
import { TeachersLoading } from './teachers-loading.js';

/** Designed (not in the catalogue): the list or the organisation could not be loaded. */
export const TEACHERS_LOAD_FAILED = 'Something went wrong loading the teachers';

export interface TeachersPanelProps {
  orgId: string;
  status: TeacherStatus;
  search: string;
  /** Typing has changed the search and it has not gone to the server yet (the pause before it does). */
  searchPending?: boolean;
  organisation: TeachersOrganisation;
  access: TeacherScreenAccess;
  productName: string;
  /** A district's list: its organisations (the district first) for the School filter; each row shows its School. */
  schools?: ReadonlyArray<{ id: string; name: string }>;
}

/**
 * One tab of the Teachers screen: the filters (Active), the server-paged table, its menus and the bulk bar. What
 * the actions open is useTeacherDialogs': this panel composes, the dialogs act.
 */
export function TeachersPanel({ orgId, status, search, searchPending = false, organisation, access, productName, schools }: TeachersPanelProps) {
  const { query, filters, result, sortBy, setPage, changePageSize, setFilters } = useTeachersList(orgId, status, search, schools ? 'district' : undefined);
  const members = result.data?.members ?? [];
  const total = result.data?.total ?? 0;
  const selection = useSelection(members);
  const licenses = organisation.licenses;
  const actions = useTeacherDialogs({ orgId, status, licenses, access, selection, query, pageMembers: members, total });
  // Inactive teachers cannot be selected; read-only mode changes nothing.
  const selectable = status === 'active' && !access.readOnly;
  const matching = listFilterOf(query);
  // Other filters or another search: 'all n teachers' no longer names the same teachers.
  const matchingKey = JSON.stringify(matching);
  const { leaveAll } = selection;
  useEffect(() => leaveAll(), [matchingKey, leaveAll]);
  const pageTicked = members.length > 0 && members.every((m) => selection.ids.has(m.id));
  const filtered = Object.keys(query.filters ?? {}).length > 0;

  return (
    <Stack gap={0} pt="md">
      {/* The whole list at once is for admins: library managers read it page by page (docs/security.md). */}
      {access.readOnly ? null : (
        <Group justify="flex-end" mb="sm">
          <Button variant="default" leftSection={<IconDownload size={18} aria-hidden />} onClick={actions.onExport} loading={actions.exportBusy} disabled={total === 0}>
            Export as CSV
          </Button>
        </Group>
      )}

      {status === 'active' ? (
        <TeacherFiltersBar filters={filters} licenses={licenses} onChange={setFilters} schools={schools} />
      ) : schools ? (
        // The Inactive tab has no other filters (its columns have no Signed up or License), but a district's has School.
        <TeacherFiltersBar filters={filters} licenses={licenses} onChange={setFilters} schools={schools} schoolOnly />
      ) : null}

      {selectable && selection.count > 0 ? (
        <BulkActionsBar
          count={selection.count}
          options={actions.bulkOptions}
          onApply={actions.onBulk}
          onClear={selection.clear}
          busy={actions.loadingSelection}
          note={actions.bulkNote}
          selectAll={
            pageTicked || selection.all
              ? { pageCount: members.length, total, all: selection.all !== null, onSelectAll: () => selection.selectAll({ filter: matching, total }) }
              : undefined
          }
        />
      ) : null}

      {result.isPending ? (
        <TeachersLoading />
      ) : result.isError ? (
        <LoadError title={TEACHERS_LOAD_FAILED} onRetry={() => result.refetch()}>
          {errorMessageOf(result.error, '')}
        </LoadError>
      ) : total === 0 ? (
        <Stack gap={4} py="lg" role="status">
          {search.trim() || filtered || status === 'inactive' ? (
            <>
              <Text fw={600}>{teacherMessages.notFound}</Text>
              {search.trim() || filtered ? <Text size="sm" c="dimmed">Review your search criteria and try again.</Text> : null}
            </>
          ) : (
            <Text fw={600}>{teacherMessages.noTeachers}</Text>
          )}
        </Stack>
      ) : (
        <TeachersTable
          members={members}
          status={status}
          access={access}
          productName={productName}
          busy={searchPending || result.isPlaceholderData}
          sort={query.sort}
          dir={query.dir}
          onSort={sortBy}
          showSchool={schools !== undefined}
          selected={selectable ? selection.ids : undefined}
          onToggle={selectable ? selection.toggle : undefined}
          onTogglePage={selectable ? (checked) => selection.togglePage(members, checked) : undefined}
          renderActions={access.readOnly ? undefined : (member) => <TeacherRowMenu member={member} licenses={licenses} access={access} onAction={actions.onRowAction} />}
          footer={<TablePaging total={total} page={query.page} pageSize={query.pageSize} onPage={setPage} onPageSize={changePageSize} />}
        />
      )}

      {actions.dialogs}
    </Stack>
  );
}
