import { Checkbox, Group, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { formatOrdinalDate, TABLE_ROW_HEIGHT } from '@quire/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { SortDirection, TeacherSortKey, TeacherStatus } from '../api/get-teachers.js';
import type { Member } from '../api/teacher-schemas.js';
import { showsLibraryManagerBadge, type TeacherScreenAccess } from '../model/teacher-access.js';
import { certificationText, licenseQuotaText } from '../model/teacher-display.js';
import { TeacherNameCell } from './teacher-name-cell.js';

export interface TeachersTableProps {
  members: Member[];
  status: TeacherStatus;
  access: TeacherScreenAccess;
  productName: string;
  sort: TeacherSortKey;
  dir: SortDirection;
  onSort: (key: TeacherSortKey) => void;
  /** Selected member ids; absent when rows cannot be selected (Inactive tab, read-only mode). */
  selected?: ReadonlySet<string>;
  onToggle?: (member: Member, checked: boolean) => void;
  onTogglePage?: (checked: boolean) => void;
  /** The row's action menu; absent in read-only mode. */
  renderActions?: (member: Member) => ReactNode;
}

function SortHeader({ label, column, sort, dir, onSort }: { label: string; column: TeacherSortKey } & Pick<TeachersTableProps, 'sort' | 'dir' | 'onSort'>) {
  const active = sort === column;
  const Icon = !active ? IconSelector : dir === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <Table.Th scope="col" aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => onSort(column)} fw={700} fz="sm" style={{ whiteSpace: 'nowrap' }}>
        <Group gap={4} wrap="nowrap">
          {label}
          <Icon size={14} aria-hidden />
          <VisuallyHidden>{active ? `, sorted ${dir === 'asc' ? 'ascending' : 'descending'}` : ', sort'}</VisuallyHidden>
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

/** A long address may wrap after its '@' rather than push the action menu out of view. */
function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@');
  return (
    <Text size="sm">
      {at < 0 ? (
        email
      ) : (
        <>
          {email.slice(0, at + 1)}
          <wbr />
          {email.slice(at + 1)}
        </>
      )}
    </Text>
  );
}

/** The teachers table of spec §2: the Inactive view shows a Removed date instead of Signed up and License. */
export function TeachersTable(props: TeachersTableProps) {
  const { members, status, access, productName, selected, onToggle, onTogglePage, renderActions } = props;
  const sortProps = { sort: props.sort, dir: props.dir, onSort: props.onSort };
  const selectable = Boolean(selected && onToggle);
  const onPage = members.filter((m) => selected?.has(m.id)).length;
  const active = status === 'active';

  return (
    <Table.ScrollContainer minWidth={760}>
      <Table highlightOnHover horizontalSpacing="xs" aria-label={active ? 'Active teachers' : 'Inactive teachers'}>
        <Table.Thead>
          <Table.Tr>
            {selectable ? (
              <Table.Th scope="col" w={44}>
                <Checkbox
                  aria-label="Select all teachers on this page"
                  checked={members.length > 0 && onPage === members.length}
                  indeterminate={onPage > 0 && onPage < members.length}
                  onChange={(event) => onTogglePage?.(event.currentTarget.checked)}
                />
              </Table.Th>
            ) : null}
            <SortHeader label="Name" column="name" {...sortProps} />
            <SortHeader label="Email" column="email" {...sortProps} />
            {active ? (
              <>
                <SortHeader label="Signed up" column="signedUp" {...sortProps} />
                <SortHeader label="License" column="license" {...sortProps} />
              </>
            ) : (
              <SortHeader label="Removed" column="removed" {...sortProps} />
            )}
            <Table.Th scope="col">Certification</Table.Th>
            {renderActions ? (
              <Table.Th scope="col" w={56}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {members.map((member) => (
            <Table.Tr key={member.id} style={{ height: TABLE_ROW_HEIGHT }} bg={selected?.has(member.id) ? 'var(--mantine-color-quire-0)' : undefined}>
              {selectable ? (
                <Table.Td>
                  <Checkbox
                    aria-label={`Select ${member.email}`}
                    checked={selected?.has(member.id) ?? false}
                    onChange={(event) => onToggle?.(member, event.currentTarget.checked)}
                  />
                </Table.Td>
              ) : null}
              <Table.Td maw={240}>
                <TeacherNameCell member={member} libraryManager={showsLibraryManagerBadge(member, access)} productName={productName} />
              </Table.Td>
              <Table.Td>
                <EmailText email={member.email} />
              </Table.Td>
              {active ? (
                <>
                  <Table.Td>{member.pending ? 'No' : 'Yes'}</Table.Td>
                  <Table.Td>
                    {member.license ? (
                      <>
                        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                          {member.license.name}
                        </Text>
                        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
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
              ) : (
                <Table.Td>{member.revokedAt ? formatOrdinalDate(member.revokedAt) : ''}</Table.Td>
              )}
              <Table.Td>{certificationText(member)}</Table.Td>
              {renderActions ? <Table.Td>{renderActions(member)}</Table.Td> : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
