import { Badge, Button, Table, Text, VisuallyHidden } from '@mantine/core';
import { libraryMessages, TABLE_ROW_HEIGHT } from '@quire/core';
import { IconExternalLink } from '@tabler/icons-react';
import { TableFrame, useTableRoom } from '../../../components/ui/table-frame.js';
import type { Library } from '@quire/core';
import type { LibraryRow } from '../model/library-rows.js';

export interface LibrariesTableProps {
  label: string;
  rows: LibraryRow[];
  /** The library being joined, whose Visit button spins. */
  joiningId: string | null;
  onVisit: (library: Library) => void;
}

const countText = (value: number | null) => (value === null ? '…' : String(value));

function VisitCell({ row, joiningId, onVisit }: { row: LibraryRow } & Pick<LibrariesTableProps, 'joiningId' | 'onVisit'>) {
  const library = row.library;
  switch (row.visit) {
    case 'private':
      return (
        <Badge variant="light" color="gray" size="sm">
          {libraryMessages.privateLibrary}
        </Badge>
      );
    case 'hidden':
      return null;
    default:
      return (
        <Button
          size="compact-sm"
          variant="light"
          rightSection={<IconExternalLink size={14} aria-hidden />}
          disabled={row.visit === 'disabled' || !library || (joiningId !== null && joiningId !== row.id)}
          loading={joiningId === row.id}
          onClick={() => library && onVisit(library)}
          aria-label={`Visit ${row.name} (opens in a new tab)`}
        >
          Visit
        </Button>
      );
  }
}

/** Role, books and authors on one line, for a table with little room. */
function narrowDetails(row: LibraryRow): string {
  return [`Role: ${row.roleLabel}`, `Books: ${countText(row.bookCount)}`, `Authors: ${countText(row.authorCount)}`].join(' · ');
}

/**
 * The viewer's table: name, role, book count, author count and the Visit action (spec §2). With little
 * room (a phone) role and counts show under the name, so Visit stays in view.
 */
export function LibrariesTable({ label, rows, joiningId, onVisit }: LibrariesTableProps) {
  if (rows.length === 0) {
    return (
      <Text py="lg" ta="center" role="status">
        {libraryMessages.noLibraries}
      </Text>
    );
  }
  return <RoomyLibrariesTable label={label} rows={rows} joiningId={joiningId} onVisit={onVisit} />;
}

/** The table itself, measured: role and counts move under the name when it has little room. */
function RoomyLibrariesTable({ label, rows, joiningId, onVisit }: LibrariesTableProps) {
  const { ref, narrow } = useTableRoom();
  return (
    <TableFrame ref={ref}>
      <Table.ScrollContainer minWidth={0} mah={360}>
        <Table aria-label={label} highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              {narrow ? null : (
                <>
                  <Table.Th scope="col">Role</Table.Th>
                  <Table.Th scope="col" ta="right">
                    Books
                  </Table.Th>
                  <Table.Th scope="col" ta="right">
                    Authors
                  </Table.Th>
                </>
              )}
              <Table.Th scope="col" w={110}>
                <VisuallyHidden>Visit</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.id} style={{ height: TABLE_ROW_HEIGHT }}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {row.name}
                  </Text>
                  {narrow ? (
                    <Text size="xs" c="dimmed">
                      {narrowDetails(row)}
                    </Text>
                  ) : null}
                </Table.Td>
                {narrow ? null : (
                  <>
                    <Table.Td>{row.roleLabel}</Table.Td>
                    <Table.Td ta="right">{countText(row.bookCount)}</Table.Td>
                    <Table.Td ta="right">{countText(row.authorCount)}</Table.Td>
                  </>
                )}
                <Table.Td>
                  <VisitCell row={row} joiningId={joiningId} onVisit={onVisit} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </TableFrame>
  );
}
