import { Table, Text } from '@mantine/core';
import { formatOrdinalDate, type RosterImportSummary } from '@quire/core';
import { TableFrame, useTableRoom } from '../../../components/ui/table-frame.js';
import { countsText, DownloadErrors } from './roster-text.js';

const STATUS_TEXT: Record<RosterImportSummary['status'], string> = {
  preview: 'Previewed',
  queued: 'Queued',
  applying: 'Applying',
  applied: 'Applied',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });
const when = (iso: string) => `${formatOrdinalDate(iso)}, ${time.format(new Date(iso))}`;

/** Every import, newest first: when, by whom, the file, its counts and state, and its errors as CSV. */
export function ImportHistory({ orgId, imports }: { orgId: string; imports: RosterImportSummary[] }) {
  const { ref, narrow } = useTableRoom();
  if (imports.length === 0) return <Text size="sm">No imports yet.</Text>;
  return (
    <TableFrame ref={ref}>
      <Table aria-label="Rostering imports" verticalSpacing="xs" horizontalSpacing={narrow ? 6 : 'xs'}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">When</Table.Th>
            {narrow ? null : <Table.Th scope="col">By</Table.Th>}
            <Table.Th scope="col">File</Table.Th>
            {narrow ? null : <Table.Th scope="col">Changes</Table.Th>}
            {narrow ? null : <Table.Th scope="col">Status</Table.Th>}
            <Table.Th scope="col">Errors</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {imports.map((item) => (
            <Table.Tr key={item.id}>
              <Table.Td>
                <Text size="sm">{when(item.createdAt)}</Text>
                {narrow ? (
                  <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
                    by {item.createdBy}
                  </Text>
                ) : null}
              </Table.Td>
              {narrow ? null : <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.createdBy}</Table.Td>}
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Text size="sm">{item.fileName}</Text>
                {narrow ? (
                  <Text size="xs">
                    {STATUS_TEXT[item.status]}: {countsText(item)}
                  </Text>
                ) : null}
              </Table.Td>
              {narrow ? null : <Table.Td>{countsText(item)}</Table.Td>}
              {narrow ? null : <Table.Td>{STATUS_TEXT[item.status]}</Table.Td>}
              <Table.Td>{item.counts.errors > 0 ? <DownloadErrors orgId={orgId} item={item} /> : <Text size="sm">None</Text>}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableFrame>
  );
}
