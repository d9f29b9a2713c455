import { Badge, Group, Menu, Table, Text } from '@mantine/core';
import { TABLE_ROW_HEIGHT } from '@quire/core';
import { RowMenu } from '../../../components/ui/row-menu.js';
import { EmailText, TableFrame } from '../../../components/ui/table-frame.js';
import { ActionsHeader, SelectAllHeader, SelectRowCell, SortableHeader } from '../../../components/ui/table-headers.js';
import type { AdminEntry } from '@quire/core';
import type { AdminSortDirection } from '../api/get-admins.js';
import type { ProviderStaff } from '../model/admin-emails.js';

export interface AdminsTableProps {
  admins: AdminEntry[];
  dir: AdminSortDirection;
  onSort: () => void;
  /** Selected e-mails; absent when the user may not change admins. */
  selected?: ReadonlySet<string>;
  onToggle?: (admin: AdminEntry, checked: boolean) => void;
  onTogglePage?: (checked: boolean) => void;
  onRemove?: (admin: AdminEntry) => void;
  /** Marks provider-staff admins with a badge. */
  staff?: ProviderStaff;
}

/**
 * The Admin table (spec §2): Email and Organization, a row menu with 'Remove admin'. It has no minimum
 * width: on a phone the e-mail breaks after its '@' and the organisation over lines, so both columns and
 * the row menu stay in view.
 */
export function AdminsTable({ admins, dir, onSort, selected, onToggle, onTogglePage, onRemove, staff }: AdminsTableProps) {
  const selectable = Boolean(selected && onToggle);
  const onPage = admins.filter((a) => selected?.has(a.email)).length;
  return (
    <TableFrame>
      <Table.ScrollContainer minWidth={0}>
        <Table highlightOnHover aria-label="Admins">
          <Table.Thead>
            <Table.Tr>
              {selectable ? (
                <SelectAllHeader rows="admins" total={admins.length} selected={onPage} onChange={onTogglePage} />
              ) : null}
              <SortableHeader label="Email" active dir={dir} onSort={onSort} />
              <Table.Th scope="col">Organization</Table.Th>
              {onRemove ? <ActionsHeader /> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {admins.map((admin) => (
              <Table.Tr key={admin.email} style={{ height: TABLE_ROW_HEIGHT }} bg={selected?.has(admin.email) ? 'var(--mantine-color-quire-0)' : undefined}>
                {selectable ? (
                  <SelectRowCell name={admin.email} checked={selected?.has(admin.email) ?? false} onChange={(checked) => onToggle?.(admin, checked)} />
                ) : null}
                <Table.Td>
                  <Group gap={4} wrap="wrap">
                    <EmailText email={admin.email} />
                    {admin.isYou ? (
                      <Badge size="sm" variant="outline" color="gray">
                        You
                      </Badge>
                    ) : null}
                    {staff?.is(admin.email) ? (
                      <Badge size="sm" variant="light" color="quire">
                        {staff.label}
                      </Badge>
                    ) : null}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{admin.organisationName}</Text>
                </Table.Td>
                {onRemove ? (
                  <Table.Td>
                    <RowMenu label={`Actions for ${admin.email}`} width={200}>
                      <Menu.Item onClick={() => onRemove(admin)}>Remove admin</Menu.Item>
                    </RowMenu>
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </TableFrame>
  );
}
