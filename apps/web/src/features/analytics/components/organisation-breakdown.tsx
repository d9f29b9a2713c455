import { Anchor, Center, Loader, Paper, ScrollArea, Table, Title } from '@mantine/core';
import { analyticsMessages, formatCount, secondsToHours, type AnalyticsBreakdownRow } from '@quire/core';
import { useId } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/ui/load-error.js';
import { paths } from '../../../config/paths.js';
import { useAnalyticsBreakdown } from '../api/get-analytics-breakdown.js';
import type { TimeRange } from '../model/time-range.js';

const FIGURES = ['students', 'libraries', 'books', 'booksCreated', 'sessions', 'sessionSeconds'] as const;
type Figure = (typeof FIGURES)[number];

/** Hours with at most one decimal, digits grouped: 4,321.5. */
const hours = (seconds: number) => secondsToHours(seconds).toLocaleString('en-US', { maximumFractionDigits: 1 });
const shown = (figure: Figure, value: number) => (figure === 'sessionSeconds' ? hours(value) : formatCount(value));

interface OrganisationBreakdownProps {
  orgId: string;
  range: TimeRange;
  /** 'school' under a district, 'district' under a region: what each row below the organisation's own is. */
  unit: 'school' | 'district';
  sessionReady: boolean;
  sessionFailed: boolean;
  retrySession: () => Promise<unknown>;
}

/**
 * The figures of a district split by school (docs/districts.md, "District views: Analytics"): the district's own row,
 * then each school's, whose name opens that school's Analytics, and a Total row equal to the tiles above.
 */
export function OrganisationBreakdown({ orgId, range, unit, sessionReady, sessionFailed, retrySession }: OrganisationBreakdownProps) {
  const breakdown = useAnalyticsBreakdown(orgId, range, sessionReady);
  const headingId = useId();
  const title = unit === 'school' ? 'By school' : 'By district';
  const columns: Record<Figure, string> = {
    students: 'Students',
    libraries: 'Libraries',
    books: 'Books',
    booksCreated: `Books created, ${range.description}`,
    sessions: `Sessions, ${range.description}`,
    sessionSeconds: `Session duration (hours), ${range.description}`,
  };
  const rows = breakdown.data?.organisations ?? [];
  const total = (figure: Figure) => rows.reduce((sum, row) => sum + row[figure], 0);
  const rowName = (row: AnalyticsBreakdownRow) =>
    row.own ? (
      `${row.organisationName} (${unit === 'school' ? 'district' : 'region'}'s own)`
    ) : (
      <Anchor component={Link} to={paths.org.analytics(row.organisationId)}>
        {row.organisationName}
      </Anchor>
    );

  return (
    <Paper component="section" withBorder p="md" mb="lg" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb="sm">
        {title}
      </Title>
      {sessionFailed || breakdown.isError ? (
        <LoadError title={analyticsMessages.customFailed} onRetry={sessionFailed ? retrySession : breakdown.refetch} retryLabel={`Retry ${title}`} />
      ) : !breakdown.data ? (
        <Center h={120} role="status">
          <Loader aria-label={`Loading ${title}`} />
        </Center>
      ) : (
        <ScrollArea.Autosize viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': `Table ${title}` }}>
          <Table striped withTableBorder miw={720} verticalSpacing="xs">
            <Table.Caption>
              Each {unit}&apos;s figures, adding up to the Total; a {unit}&apos;s name opens its Analytics.
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{unit === 'school' ? 'School' : 'District'}</Table.Th>
                {FIGURES.map((f) => (
                  <Table.Th key={f} scope="col">
                    {columns[f]}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.organisationId}>
                  <Table.Th scope="row" fw={400}>
                    {rowName(row)}
                  </Table.Th>
                  {FIGURES.map((f) => (
                    <Table.Td key={f}>{shown(f, row[f])}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th scope="row">Total</Table.Th>
                {FIGURES.map((f) => (
                  <Table.Td key={f} fw={700}>
                    {shown(f, total(f))}
                  </Table.Td>
                ))}
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </ScrollArea.Autosize>
      )}
    </Paper>
  );
}
