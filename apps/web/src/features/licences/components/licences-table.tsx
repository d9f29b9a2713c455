import { Table, Text } from '@mantine/core';
import { NO_TOTAL_BOOKS, TABLE_ROW_HEIGHT, totalBooks, type OrganisationLicense } from '@quire/core';
import { availableSeats } from '../api/get-organisation-licences.js';

function booksLine(license: OrganisationLicense): string {
  const total = totalBooks(license);
  return total === NO_TOTAL_BOOKS ? `Books: ${NO_TOTAL_BOOKS}` : `${total} books`;
}

/** License / Assigned / Available / Total purchased (spec §2), with the licence maths of '@quire/core'. */
export function LicencesTable({ licenses }: { licenses: OrganisationLicense[] }) {
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="Licenses">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">License</Table.Th>
            <Table.Th scope="col">Assigned</Table.Th>
            <Table.Th scope="col">Available</Table.Th>
            <Table.Th scope="col">Total purchased</Table.Th>
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
              </Table.Th>
              <Table.Td>{license.allocated}</Table.Td>
              <Table.Td>{availableSeats(license)}</Table.Td>
              <Table.Td>{license.quantity}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
