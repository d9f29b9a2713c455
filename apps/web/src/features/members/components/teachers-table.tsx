import { Table, Text } from '@mantine/core';
import { formatOrdinalDate, TABLE_ROW_HEIGHT } from '@quire/core';
import { useDeferredValue, type ReactNode } from 'react';
import { EmailText, TableFrame, useTableRoom } from '../../../components/ui/table-frame.js';
import { ActionsHeader, SelectAllHeader, SelectRowCell, SortableHeader } from '../../../components/ui/table-headers.js';
import type { SortDirection, TeacherSortKey, TeacherStatus } from '@quire/core';
import type { Member } from '@quire/core';
import { showsLibraryManagerBadge, type TeacherScreenAccess } from '../model/teacher-access.js';
import { certificationText, licenseQuotaText } from '../model/teacher-display.js';
import { TeacherNameCell } from './teacher-name-cell.js';
import { TeachersLoading } from './teachers-loading.js';

export interface TeachersTableProps {
  members: Member[];
  status: TeacherStatus;
  access: TeacherScreenAccess;
  productName: string;
  /**
   * The rows shown are about to be replaced (a search, filter, sort or page on its way): the table says so to assistive
   * technology (aria-busy) until the new rows are drawn.
   */
  busy?: boolean;
  sort: TeacherSortKey;
  dir: SortDirection;
  onSort: (key: TeacherSortKey) => void;
  /** Selected member ids; absent when rows cannot be selected (Inactive tab, read-only mode). */
  selected?: ReadonlySet<string>;
  onToggle?: (member: Member, checked: boolean) => void;
  onTogglePage?: (checked: boolean) => void;
  /** The row's action menu; absent in read-only mode. */
  renderActions?: (member: Member) => ReactNode;
  /** Shown under the table once it is drawn (the pager), so it does not show beside the loader and then jump down. */
  footer?: ReactNode;
  /** A district's list: a School column (each teacher's organisation). */
  showSchool?: boolean;
}

function SortHeader({ label, column, sort, dir, onSort, className }: { label: string; column: TeacherSortKey; className?: string } & Pick<TeachersTableProps, 'sort' | 'dir' | 'onSort'>) {
  return <SortableHeader label={label} active={sort === column} dir={dir} onSort={() => onSort(column)} className={className} />;
}

/**
 * The teachers table of spec §2. It is drawn in a transition: React yields to the browser every few milliseconds while
 * it builds the table, instead of blocking the page for one task of 350–540 ms on a slow phone
 * (docs/performance-log.md, "First load"). Until the first drawing is ready the loader stays, alone: the footer comes
 * with the rows, so nothing below the loader moves down when they arrive. A new page's rows replace the old ones when
 * ready.
 */
export function TeachersTable(props: TeachersTableProps) {
  const members = useDeferredValue<Member[] | null>(props.members, null);
  if (members === null) {
    return <TeachersLoading />;
  }
  return (
    <>
      <TeachersTableDrawn {...props} members={members} busy={props.busy === true || members !== props.members} />
      {props.footer}
    </>
  );
}

/** The Inactive view shows a Removed date instead of Signed up and License. */
function TeachersTableDrawn(props: TeachersTableProps) {
  const { members, status, access, productName, busy, selected, onToggle, onTogglePage, renderActions, showSchool = false } = props;
  const sortProps = { sort: props.sort, dir: props.dir, onSort: props.onSort };
  const selectable = Boolean(selected && onToggle);
  const onPage = members.filter((m) => selected?.has(m.id)).length;
  const active = status === 'active';
  // Teachers a OneRoster import manages carry the role their student information system gives them; the column shows
  // when the page has one (a school that does not roster keeps the spec's columns).
  const rostered = members.some((m) => m.rosterRole);

  const { ref, narrow } = useTableRoom();
  const libraryManager = (member: Member) => showsLibraryManagerBadge(member, access);

  return (
    <TableFrame ref={ref}>
      <Table.ScrollContainer minWidth={0}>
        <Table highlightOnHover horizontalSpacing="xs" aria-label={active ? 'Active teachers' : 'Inactive teachers'} aria-busy={busy || undefined}>
          <Table.Thead>
            <Table.Tr>
              {selectable ? (
                <SelectAllHeader rows="teachers" total={members.length} selected={onPage} onChange={onTogglePage} />
              ) : null}
              {narrow ? null : <SortHeader label="Name" column="name" {...sortProps} />}
              <SortHeader label="Email" column="email" {...sortProps} />
              {showSchool && !narrow ? <SortHeader label="School" column="school" {...sortProps} /> : null}
              {active ? (
                narrow ? null : (
                  <>
                    <SortHeader label="Signed up" column="signedUp" {...sortProps} />
                    <SortHeader label="License" column="license" {...sortProps} />
                  </>
                )
              ) : (
                <SortHeader label="Removed" column="removed" {...sortProps} />
              )}
              {narrow ? null : <Table.Th scope="col">Certification</Table.Th>}
              {rostered && !narrow ? <Table.Th scope="col">Roster role</Table.Th> : null}
              {renderActions ? <ActionsHeader /> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map((member) => (
              <Table.Tr key={member.id} style={{ height: TABLE_ROW_HEIGHT }} bg={selected?.has(member.id) ? 'var(--mantine-color-quire-0)' : undefined}>
                {selectable ? (
                  <SelectRowCell name={member.email} checked={selected?.has(member.id) ?? false} onChange={(checked) => onToggle?.(member, checked)} />
                ) : null}
                {narrow ? null : (
                  <Table.Td>
                    <TeacherNameCell member={member} libraryManager={libraryManager(member)} productName={productName} />
                  </Table.Td>
                )}
                <Table.Td>
                  {/* Little room: the e-mail is the column that stays (the default sort; pending teachers have no
                      name), with the name above it and the dropped columns' values under it, each named. */}
                  {narrow ? <TeacherNameCell member={member} libraryManager={libraryManager(member)} productName={productName} /> : null}
                  <EmailText email={member.email} />
                  {narrow ? (
                    <Text size="xs" c="dimmed">
                      {[...(showSchool ? [`School: ${member.organisation?.name ?? ''}`] : []), ...narrowDetails(member, active)].join(' · ')}
                    </Text>
                  ) : null}
                </Table.Td>
                {showSchool && !narrow ? <Table.Td>{member.organisation?.name ?? ''}</Table.Td> : null}
                {active ? (
                  narrow ? null : (
                    <>
                      <Table.Td>{member.pending ? 'No' : 'Yes'}</Table.Td>
                      <Table.Td>
                        {member.license ? (
                          <>
                            <Text size="sm">{member.license.name}</Text>
                            <Text size="xs" c="dimmed">
                              {licenseQuotaText(member.license)}
                            </Text>
                          </>
                        ) : (
                          <Text size="sm" c="dimmed">
                            None
                          </Text>
                        )}
                      </Table.Td>
                    </>
                  )
                ) : (
                  <Table.Td>{member.revokedAt ? formatOrdinalDate(member.revokedAt) : ''}</Table.Td>
                )}
                {narrow ? null : <Table.Td>{certificationText(member)}</Table.Td>}
                {rostered && !narrow ? <Table.Td>{member.rosterRole ?? ''}</Table.Td> : null}
                {renderActions ? <Table.Td>{renderActions(member)}</Table.Td> : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </TableFrame>
  );
}

/** The values of the columns a narrow table drops, each named as its column is. */
function narrowDetails(member: Member, active: boolean): string[] {
  const certification = certificationText(member);
  const details = active
    ? [`Signed up: ${member.pending ? 'No' : 'Yes'}`, `License: ${member.license ? `${member.license.name} (${licenseQuotaText(member.license)})` : 'None'}`]
    : [];
  const withCertification = certification ? [...details, `Certification: ${certification}`] : details;
  return member.rosterRole ? [...withCertification, `Roster role: ${member.rosterRole}`] : withCertification;
}
