import { Badge, Button, Center, Group, Loader, Stack, Tabs, Text, Tooltip } from '@mantine/core';
import { LIBRARY_FILTER_ALL, LIBRARY_FILTER_ARCHIVED, MODAL_WIDTHS, ROLE_LIBRARY_MANAGER, type LibraryFilter } from '@quire/core';
import { useEffect, useState } from 'react';
import { LoadError } from '../../../components/ui/load-error.js';
import { Dialog } from '../../../components/ui/dialog.js';
import { notifyError } from '../../../lib/notify.js';
import { useBookCounts } from '../api/get-book-counts.js';
import { useTeacherLibraries } from '../api/get-teacher-libraries.js';
import { useLibraryAccess } from '../hooks/use-library-access.js';
import { useVisitLibrary } from '../hooks/use-visit-library.js';
import { bookCountErrorText, fetchLibrariesErrorText } from '../model/library-errors.js';
import { libraryRows, libraryTotals } from '../model/library-rows.js';
import { teacherName, type TeacherRef } from '../model/teacher-ref.js';
import { LibrariesTable } from './libraries-table.js';
import { TeacherAvatar } from './teacher-avatar.js';
import { VisitReasonDialog } from './visit-reason-dialog.js';
import { useLibraryOrganisation } from '../model/library-organisation.js';

export interface TeacherLibraryViewerProps {
  teacher: TeacherRef;
  opened: boolean;
  onClose: () => void;
  /** 'Manage libraries': the caller closes the viewer and opens the Manage Teacher Libraries wizard. */
  onManageLibraries?: (teacher: TeacherRef) => void;
}

/**
 * A count in the header with its explanation as a tooltip, shown on hover and on keyboard focus. It opens
 * below the count: above, it would cover the dialog's Close button.
 */
function HeaderCount({ label, value, tooltip }: { label: string; value: number | null; tooltip: string }) {
  return (
    <Tooltip label={tooltip} withArrow multiline w={240} position="bottom-end">
      <Stack gap={0} align="center" role="group" tabIndex={0} aria-label={`${label}: ${value ?? 'loading'}. ${tooltip}`} style={{ cursor: 'help' }}>
        <Text fw={700} size="lg" aria-hidden>
          {value ?? '…'}
        </Text>
        <Text size="xs" c="dimmed" aria-hidden>
          {label}
        </Text>
      </Stack>
    </Tooltip>
  );
}

/** Reports a load failure once, as the §8 banner. */
function useErrorBanner(error: unknown, text: (error: unknown) => string) {
  useEffect(() => {
    if (error) notifyError(text(error));
  }, [error, text]);
}

/** The teacher library viewer (spec §2): who the teacher is, their libraries in two tabs, and Visit. */
export function TeacherLibraryViewer({ teacher, opened, onClose, onManageLibraries }: TeacherLibraryViewerProps) {
  const organisation = useLibraryOrganisation();
  const orgId = organisation.id;
  const { access } = useLibraryAccess(orgId);
  const libraries = useTeacherLibraries(orgId, teacher.id);
  const counts = useBookCounts(orgId, teacher.id);
  const [filter, setFilter] = useState<LibraryFilter>(LIBRARY_FILTER_ALL);
  const visit = useVisitLibrary({ orgId, teacherId: teacher.id, allowed: access?.canVisit ?? false });
  useErrorBanner(libraries.error, fetchLibrariesErrorText);
  useErrorBanner(counts.error, bookCountErrorText);

  const totals = libraryTotals(libraries.data, counts.data);
  const name = teacherName(teacher);
  const manager = Boolean(access?.orgLibraries) && teacher.role === ROLE_LIBRARY_MANAGER;
  const booksTooltip = counts.data
    ? `${counts.data.owned} in their own libraries and ${counts.data.private} in My Books, ${counts.data.total} in all`
    : 'Books in the libraries the teacher owns, My Books included';

  return (
    <>
      <Dialog
        opened={opened && !visit.asking}
        onClose={onClose}
        size={MODAL_WIDTHS[7]}
        title={`${name}’s libraries`}
      >
        <Stack>
          <Group justify="space-between" align="flex-start" wrap="wrap">
            <Group wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
              <TeacherAvatar teacher={teacher} />
              <Stack gap={2}>
                <Group gap="xs">
                  <Text fw={700} size="lg">
                    {name}
                  </Text>
                  {manager ? (
                    <Badge variant="outline" color="quire" size="sm">
                      Library Manager
                    </Badge>
                  ) : null}
                </Group>
                <Text size="sm">{teacher.email}</Text>
                <Text size="sm" c="dimmed">
                  {access?.organisationName ?? organisation.name}
                </Text>
              </Stack>
            </Group>
            <Group gap="lg" wrap="nowrap">
              <HeaderCount label="Libraries" value={totals.libraries} tooltip="Libraries the teacher owns or has joined, My Books included" />
              <HeaderCount label="Books" value={totals.books} tooltip={booksTooltip} />
            </Group>
          </Group>

          <Tabs value={String(filter)} onChange={(value) => setFilter(value === String(LIBRARY_FILTER_ARCHIVED) ? LIBRARY_FILTER_ARCHIVED : LIBRARY_FILTER_ALL)}>
            <Tabs.List>
              {/* The viewer opens on its tabs, the first control of its content, not on Close. */}
              <Tabs.Tab value={String(LIBRARY_FILTER_ALL)} data-autofocus={filter === LIBRARY_FILTER_ALL ? true : undefined}>
                All
              </Tabs.Tab>
              <Tabs.Tab value={String(LIBRARY_FILTER_ARCHIVED)} data-autofocus={filter === LIBRARY_FILTER_ARCHIVED ? true : undefined}>
                Archived
              </Tabs.Tab>
            </Tabs.List>
            {[LIBRARY_FILTER_ALL, LIBRARY_FILTER_ARCHIVED].map((tab) => (
              <Tabs.Panel key={tab} value={String(tab)} pt="sm">
                {filter !== tab ? null : libraries.isPending ? (
                  <Center py="lg" role="status">
                    <Loader aria-label="Loading libraries" />
                  </Center>
                ) : libraries.isError ? (
                  <LoadError title={fetchLibrariesErrorText(libraries.error)} onRetry={() => libraries.refetch()} />
                ) : (
                  <LibrariesTable
                    label={tab === LIBRARY_FILTER_ALL ? 'All libraries' : 'Archived libraries'}
                    rows={libraryRows(tab, libraries.data, counts.data)}
                    joiningId={visit.joiningId}
                    onVisit={visit.visit}
                  />
                )}
              </Tabs.Panel>
            ))}
          </Tabs>

          <Group justify="space-between">
            {access?.isAdmin && onManageLibraries ? (
              <Button variant="default" onClick={() => onManageLibraries(teacher)}>
                Manage libraries
              </Button>
            ) : (
              <span />
            )}
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      </Dialog>
      {opened && visit.asking ? (
        <VisitReasonDialog libraryName={visit.asking.name} busy={visit.joiningId !== null} onVisit={visit.confirmReason} onClose={visit.cancelReason} />
      ) : null}
    </>
  );
}
