import { ActionIcon, Badge, Checkbox, Group, Menu, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { TABLE_ROW_HEIGHT } from '@quire/core';
import { IconArrowDown, IconArrowUp, IconDots } from '@tabler/icons-react';
import type { AdminEntry, AdminSortDirection } from '../api/get-admins.js';

export interface AdminsTableProps {
  admins: AdminEntry[];
  dir: AdminSortDirection;
  onSort: () => void;
  /** Selected e-mails; absent when the user may not change admins. */
  selected?: ReadonlySet<string>;
  onToggle?: (admin: AdminEntry, checked: boolean) => void;
  onTogglePage?: (checked: boolean) => void;
  onRemove?: (admin: AdminEntry) => void;
}

/** The Admin table (spec §2): Email and Organization, a row menu with 'Remove admin'. */
export function AdminsTable({ admins, dir, onSort, selected, onToggle, onTogglePage, onRemove }: AdminsTableProps) {
  const selectable = Boolean(selected && onToggle);
  const onPage = admins.filter((a) => selected?.has(a.email)).length;
  const SortIcon = dir === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table highlightOnHover aria-label="Admins">
        <Table.Thead>
          <Table.Tr>
            {selectable ? (
              <Table.Th scope="col" w={44}>
                <Checkbox
                  aria-label="Select all admins on this page"
                  checked={admins.length > 0 && onPage === admins.length}
                  indeterminate={onPage > 0 && onPage < admins.length}
                  onChange={(event) => onTogglePage?.(event.currentTarget.checked)}
                />
              </Table.Th>
            ) : null}
            <Table.Th scope="col" aria-sort={dir === 'asc' ? 'ascending' : 'descending'}>
              <UnstyledButton onClick={onSort} fw={700} fz="sm">
                <Group gap={4} wrap="nowrap">
                  Email
                  <SortIcon size={14} aria-hidden />
                  <VisuallyHidden>{`, sorted ${dir === 'asc' ? 'ascending' : 'descending'}`}</VisuallyHidden>
                </Group>
              </UnstyledButton>
            </Table.Th>
            <Table.Th scope="col">Organization</Table.Th>
            {onRemove ? (
              <Table.Th scope="col" w={56}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {admins.map((admin) => (
            <Table.Tr key={admin.email} style={{ height: TABLE_ROW_HEIGHT }} bg={selected?.has(admin.email) ? 'var(--mantine-color-quire-0)' : undefined}>
              {selectable ? (
                <Table.Td>
                  <Checkbox
                    aria-label={`Select ${admin.email}`}
                    checked={selected?.has(admin.email) ?? false}
                    onChange={(event) => onToggle?.(admin, event.currentTarget.checked)}
                  />
                </Table.Td>
              ) : null}
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Text size="sm">{admin.email}</Text>
                  {admin.isYou ? (
                    <Badge size="sm" variant="outline" color="gray">
                      You
                    </Badge>
                  ) : null}
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{admin.organisationName}</Text>
              </Table.Td>
              {onRemove ? (
                <Table.Td>
                  <Menu position="bottom-end" shadow="md" width={200}>
                    <Menu.Target>
                      <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${admin.email}`}>
                        <IconDots size={18} aria-hidden />
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item onClick={() => onRemove(admin)}>
                        Remove admin
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
