import { Group, Table, Text } from '@mantine/core';
import { allocationShareText, available, formatCount, NO_TOTAL_BOOKS, TABLE_ROW_HEIGHT, totalBooks, type OrganisationLicense } from '@quire/core';
import { IconAlertTriangleFilled } from '@tabler/icons-react';
import { TableFrame, useTableRoom } from '../../../components/ui/table-frame.js';
import { ColumnHeaders } from '../../../components/ui/table-headers.js';

function booksLine(license: OrganisationLicense): string {
  const total = totalBooks(license);
  return total === NO_TOTAL_BOOKS ? `Books: ${NO_TOTAL_BOOKS}` : `${formatCount(total)} books`;
}

/**
 * License / Assigned / Available / Total purchased (spec §2), with the licence maths of '@quire/core'.
 * It has no minimum width: on a phone the headers and names wrap and all four columns stay in view
 *.
 */
export function LicensesTable({ licenses }: { licenses: OrganisationLicense[] }) {
  const { ref, narrow } = useTableRoom();
  // A phone: tighter cells and smaller headers, so the four columns fit 390 px without scrolling.
  const header = narrow ? 'xs' : 'sm';
  return (
    <TableFrame ref={ref}>
      <Table.ScrollContainer minWidth={0}>
        <Table verticalSpacing="sm" horizontalSpacing={narrow ? 6 : 'xs'} highlightOnHover aria-label="Licenses">
          <Table.Thead>
            <Table.Tr>
              <ColumnHeaders names={['License', 'Assigned', 'Available', 'Total purchased']} fz={header} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {licenses.map((license) => (
              <Table.Tr key={license.id} style={{ height: TABLE_ROW_HEIGHT }}>
                <Table.Th scope="row" fw={400}>
                  <Text fw={600} size="sm">
                    {license.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {booksLine(license)}
                    {license.applyToAll ? ' · applies to all teachers' : ''}
                  </Text>
                  {license.allocatedBy ? (
                    <Text size="xs" c="dimmed">
                      {allocationShareText({ assigned: license.allocated, seats: license.quantity, districtName: license.allocatedBy.organisationName })}
                    </Text>
                  ) : null}
                </Table.Th>
                <Table.Td>{formatCount(license.allocated)}</Table.Td>
                <Table.Td>
                  <AvailableCell license={license} />
                </Table.Td>
                <Table.Td>{formatCount(license.quantity)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </TableFrame>
  );
}

/** The real figure; an over-allocated licence shows its negative count and says so, in words that may wrap. */
function AvailableCell({ license }: { license: OrganisationLicense }) {
  const seats = available(license);
  if (seats >= 0) return <>{formatCount(seats)}</>;
  return (
    <Group gap={6} wrap="wrap" align="center">
      <span>{formatCount(seats)}</span>
      <Text component="span" size="xs" fw={700} c="red.9" style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
        <IconAlertTriangleFilled size={14} aria-hidden style={{ flexShrink: 0 }} />
        {`Over-allocated by ${formatCount(-seats)}`}
      </Text>
    </Group>
  );
}
