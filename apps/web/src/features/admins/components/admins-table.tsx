import { Badge, Group, Menu, Table, Text } from '@mantine/core';
import { TABLE_ROW_HEIGHT } from '@quire/core';
import { RowMenu } from '../../../components/ui/row-menu.js';
import { EmailText, TableFrame, useTableRoom } from '../../../components/ui/table-frame.js';
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
  /** 'Reset 2-step verification' for another admin of this organisation who has it on. */
  onResetTwoStep?: (admin: AdminEntry) => void;
  /** Marks provider-staff admins with a badge. */
  staff?: ProviderStaff;
  /**
   * The organisation open: only its own admins are selected and removed here. A district's admins on a school's page
   * ('District admin') are removed at the district; a school's admins on the district's page, at the school.
   */
  orgId?: string;
}

/** The 2-step column's value: a passkey wins over the authenticator app. */
const TWO_STEP_TEXT: Record<AdminEntry['twoStep'], string> = { passkey: 'Passkey', on: 'On', off: 'Off' };

/**
 * The Admin table (spec §2): Email, Organization and 2-step (whether the admin's account has 2-step verification on), a
 * row menu with 'Remove admin' and, for another admin with it on, 'Reset 2-step verification'. It has no minimum
 * width: on a phone the e-mail breaks after its '@' and the organisation over lines, and the 2-step column gives its
 * room up (its value shows as a '2-step on/off' badge under the address), so Email, Organization and the row menu
 * stay in view.
 */
export function AdminsTable({ admins, dir, onSort, selected, onToggle, onTogglePage, onRemove, onResetTwoStep, staff, orgId }: AdminsTableProps) {
  const selectable = Boolean(selected && onToggle);
  const own = (admin: AdminEntry) => orgId === undefined || admin.organisationId === orgId;
  const isSelected = (admin: AdminEntry) => own(admin) && (selected?.has(admin.email) ?? false);
  const onPage = admins.filter(isSelected).length;
  const { ref: tableRoom, narrow } = useTableRoom();
  const twoStepBadge = (admin: AdminEntry, label: string) => (
    // On stands out (filled), Off is quiet (outline); both keep the 4.5:1 contrast on a highlighted row.
    <Badge size="sm" variant={admin.twoStep === 'off' ? 'outline' : 'filled'} color={admin.twoStep === 'off' ? 'gray' : 'dark'}>
      {label}
    </Badge>
  );
  return (
    <TableFrame ref={tableRoom}>
      <Table.ScrollContainer minWidth={0}>
        <Table highlightOnHover aria-label="Admins">
          <Table.Thead>
            <Table.Tr>
              {selectable ? (
                <SelectAllHeader rows="admins" total={admins.filter(own).length} selected={onPage} onChange={onTogglePage} />
              ) : null}
              <SortableHeader label="Email" active dir={dir} onSort={onSort} />
              <Table.Th scope="col">Organization</Table.Th>
              {narrow ? null : <Table.Th scope="col">2-step</Table.Th>}
              {onRemove ? <ActionsHeader /> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {admins.map((admin) => (
              <Table.Tr key={`${admin.organisationId}:${admin.email}`} style={{ height: TABLE_ROW_HEIGHT }} bg={isSelected(admin) ? 'var(--mantine-color-quire-0)' : undefined}>
                {selectable ? (
                  own(admin) ? (
                    <SelectRowCell name={admin.email} checked={isSelected(admin)} onChange={(checked) => onToggle?.(admin, checked)} />
                  ) : (
                    <Table.Td />
                  )
                ) : null}
                <Table.Td>
                  <Group gap={4} wrap="wrap">
                    <EmailText email={admin.email} />
                    {admin.isYou ? (
                      <Badge size="sm" variant="outline" color="gray">
                        You
                      </Badge>
                    ) : null}
                    {admin.inherited ? (
                      <Badge size="sm" variant="light" color="gray">
                        District admin
                      </Badge>
                    ) : null}
                    {staff?.is(admin.email) ? (
                      <Badge size="sm" variant="light" color="quire">
                        {staff.label}
                      </Badge>
                    ) : null}
                    {narrow ? twoStepBadge(admin, `2-step: ${TWO_STEP_TEXT[admin.twoStep]}`) : null}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{admin.organisationName}</Text>
                </Table.Td>
                {narrow ? null : <Table.Td>{twoStepBadge(admin, TWO_STEP_TEXT[admin.twoStep])}</Table.Td>}
                {onRemove ? (
                  <Table.Td>
                    {own(admin) ? (
                      <RowMenu label={`Actions for ${admin.email}`} width={200}>
                        <Menu.Item onClick={() => onRemove(admin)}>Remove admin</Menu.Item>
                        {onResetTwoStep && admin.twoStep !== 'off' && !admin.isYou && admin.userId ? (
                          <Menu.Item onClick={() => onResetTwoStep(admin)}>Reset 2-step verification</Menu.Item>
                        ) : null}
                      </RowMenu>
                    ) : (
                      <Text size="xs" c="dimmed">
                        {admin.inherited ? `Set at ${admin.organisationName}` : `Managed at ${admin.organisationName}`}
                      </Text>
                    )}
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
