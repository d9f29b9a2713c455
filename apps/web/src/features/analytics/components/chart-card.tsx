import { Box, Button, Center, Group, Loader, Paper, ScrollArea, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { analyticsMessages } from '@quire/core';
import { IconDownload, IconTable } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';
import { LoadError } from '../../../components/ui/load-error.js';
import { csvFileName, downloadCsv, toCsv } from '../model/csv.js';
import { isEmpty, type ChartTable } from '../model/chart-table.js';

export interface ChartCardProps {
  title: string;
  /** 300 for pie charts, 400 for the others (spec §2). */
  height: number;
  /** What the chart shows, read out in place of the drawing, e.g. 'Sessions per week'. */
  description: string;
  isPending: boolean;
  /** The catalogue text to show when the figures could not be loaded. */
  error: string | null;
  table: ChartTable | null;
  /** Parts of the CSV file name (organisation, range). */
  fileName: string[];
  children: (table: ChartTable) => ReactNode;
  /** Shown under the drawing (outside it, so it is read as text): a legend the chart library does not draw. */
  legend?: (table: ChartTable) => ReactNode;
  /** Loads the figures again after a failure. */
  onRetry: () => Promise<unknown>;
}

/**
 * One chart with its states (loading, error, no data) and its figures for people who cannot see it:
 * a data table the keyboard can reach, and a CSV download of the same figures.
 */
export function ChartCard({ title, height, description, isPending, error, table, fileName, children, legend, onRetry }: ChartCardProps) {
  const [showTable, setShowTable] = useState(false);
  const tableId = useId();
  const headingId = useId();
  const ready = !isPending && !error && table !== null;
  const empty = ready && isEmpty(table);

  return (
    <Paper component="section" withBorder p="md" aria-labelledby={headingId}>
      <Group justify="space-between" align="flex-start" mb="sm" gap="xs">
        <Title order={2} size="h4" id={headingId}>
          {title}
        </Title>
        {ready && !empty ? (
          <Group gap="xs">
            <Button
              variant="default"
              size="xs"
              leftSection={<IconTable size={16} aria-hidden />}
              aria-expanded={showTable}
              aria-controls={tableId}
              onClick={() => setShowTable((v) => !v)}
            >
              {showTable ? 'Hide data table' : 'Show data table'}
              <VisuallyHidden> of {title}</VisuallyHidden>
            </Button>
            <Button
              variant="default"
              size="xs"
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={() => downloadCsv(csvFileName(...fileName, title), toCsv([table.columns, ...table.rows, ['Total', ...table.totals]]))}
            >
              Download CSV<VisuallyHidden> of {title}</VisuallyHidden>
            </Button>
          </Group>
        ) : null}
      </Group>

      {isPending ? (
        <Center h={height} role="status">
          <Loader aria-label={`Loading ${title}`} />
        </Center>
      ) : error ? (
        <Center h={height}>
          <Box w="100%">
            <LoadError title={error} onRetry={onRetry} retryLabel={`Retry ${title}`} />
          </Box>
        </Center>
      ) : !table || empty ? (
        <Center h={height}>
          <Text c="dimmed">{analyticsMessages.noData}</Text>
        </Center>
      ) : (
        <>
          <div role="img" aria-label={`${description}. The figures are in the data table of ${title}.`} style={{ height }}>
            {children(table)}
          </div>
          {legend ? legend(table) : null}
          <div id={tableId} hidden={!showTable}>
          <ScrollArea.Autosize
            mah={420}
            mt="sm"
            viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': `Data table of ${title}` }}
          >
            <Table striped withTableBorder stickyHeader miw={Math.max(320, table.columns.length * 96)}>
              <Table.Caption>{description}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  {table.columns.map((c) => (
                    <Table.Th key={c} scope="col">
                      {c}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {table.rows.map((row) => (
                  <Table.Tr key={String(row[0])}>
                    {row.map((cell, i) =>
                      i === 0 ? (
                        <Table.Th key={i} scope="row" fw="normal">
                          {cell}
                        </Table.Th>
                      ) : (
                        <Table.Td key={i}>{cell.toLocaleString()}</Table.Td>
                      ),
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr>
                  <Table.Th scope="row">Total</Table.Th>
                  {table.totals.map((n, i) => (
                    <Table.Td key={i} fw={700}>
                      {n.toLocaleString()}
                    </Table.Td>
                  ))}
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </ScrollArea.Autosize>
          </div>
        </>
      )}
    </Paper>
  );
}
