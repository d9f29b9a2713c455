import { Button, Group, Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { abbreviateNumber, analyticsMessages, secondsToHours } from '@quire/core';
import { IconRefresh } from '@tabler/icons-react';
import { useAnalyticsCount } from '../api/get-analytics-count.js';
import { useAnalyticsSeries } from '../api/get-analytics-series.js';
import type { TimeRange } from '../model/time-range.js';

interface TileProps {
  label: string;
  value: number | undefined;
  isPending: boolean;
  isError: boolean;
  /** Loads the figure again after a failure. */
  onRetry: () => unknown;
}

/** One figure; on its own failure it says so, with Retry, without touching the other tiles. */
function StatTile({ label, value, isPending, isError, onRetry }: TileProps) {
  return (
    <Paper withBorder p="md" component="dl" m={0} aria-busy={isPending}>
      <Text component="dt" size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      {/* One line of the figure's size in every state, so the tiles and the charts below do not move when it arrives. */}
      <Text component="dd" m={0} mt={4} fz={28} lh={1.2} fw={700}>
        {isError ? (
          <Group component="span" gap="xs" wrap="nowrap">
            <Text span fz="sm" fw={400} c="red.8">
              {analyticsMessages.tileFailed}
            </Text>
            <Button size="compact-xs" variant="default" leftSection={<IconRefresh size={14} aria-hidden />} aria-label={`Retry ${label}`} onClick={() => void onRetry()}>
              Retry
            </Button>
          </Group>
        ) : isPending ? (
          <Skeleton height="1.2em" width={80} component="span" display="block" aria-label={`Loading ${label}`} />
        ) : (
          abbreviateNumber(value ?? 0)
        )}
      </Text>
    </Paper>
  );
}

interface StatTilesProps {
  orgId: string;
  range: TimeRange;
  sessionReady: boolean;
  sessionFailed: boolean;
  /** Asks for the analytics session again (its failure fails every tile). */
  retrySession: () => Promise<unknown>;
}

/** Students, libraries, books, books created in the period, and session duration in hours (spec §2). */
export function StatTiles({ orgId, range, sessionReady, sessionFailed, retrySession }: StatTilesProps) {
  const students = useAnalyticsCount(orgId, 'students', null, sessionReady);
  const libraries = useAnalyticsCount(orgId, 'libraries', null, sessionReady);
  const books = useAnalyticsCount(orgId, 'books', null, sessionReady);
  const created = useAnalyticsCount(orgId, 'books', range, sessionReady);
  const duration = useAnalyticsSeries(orgId, 'sessions-duration', 'total', range, sessionReady);
  const state = (q: { isPending: boolean; isError: boolean; refetch: () => Promise<unknown> }) => ({
    isPending: !sessionFailed && (q.isPending || !sessionReady),
    isError: sessionFailed || q.isError,
    onRetry: () => (sessionFailed ? retrySession() : q.refetch()),
  });
  const hours = duration.data ? secondsToHours(duration.data.rows.reduce((sum, r) => sum + r.total, 0)) : undefined;

  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="md" mb="lg">
      <StatTile label="Students" value={students.data?.count} {...state(students)} />
      <StatTile label="Libraries" value={libraries.data?.count} {...state(libraries)} />
      <StatTile label="Books" value={books.data?.count} {...state(books)} />
      <StatTile label={`Books created, ${range.description}`} value={created.data?.count} {...state(created)} />
      <StatTile label={`Session duration (hours), ${range.description}`} value={hours} {...state(duration)} />
    </SimpleGrid>
  );
}
