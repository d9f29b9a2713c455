import { Alert, Group, SegmentedControl, Text } from '@mantine/core';
import { analyticsMessages } from '@quire/core';
import { useMemo, useState } from 'react';
import { PageTitle } from '../../../components/ui/page-title.js';
import { organisationsUnder } from '../../../lib/access/organisations-under.js';
import { useSession } from '../../../lib/session/index.js';
import { useAnalyticsSession } from '../api/get-analytics-session.js';
import { DEFAULT_TIME_OPTION, TIME_OPTIONS, timeRange, type TimeOption } from '../model/time-range.js';
import { AnalyticsCharts } from './analytics-charts.js';
import { OrganisationBreakdown } from './organisation-breakdown.js';
import { StatTiles } from './stat-tiles.js';

/** The spec's note on data from 1 July 2023. */
const ANALYTICS_SERVICE_NOTE = 'From July 1st 2023, a web analytics service is no longer used for this data.';

/**
 * Stat tiles and charts of how the product is used across the organisation (spec §2 "Analytics"). A district's figures
 * are its own and its schools', with a table of them by school (docs/districts.md).
 */
export function AnalyticsPage() {
  const session = useSession();
  const orgId = session.currentOrganisation?.id ?? '';
  const [option, setOption] = useState<TimeOption>(DEFAULT_TIME_OPTION);
  const range = useMemo(() => timeRange(option), [option]);
  const analytics = useAnalyticsSession(orgId);
  const sessionReady = analytics.isSuccess || analytics.data !== undefined;
  const sessionFailed = !sessionReady && analytics.isError;
  const organisationName = analytics.data?.usersOrganisation.name ?? session.currentOrganisation?.name ?? '';
  const below = useMemo(() => organisationsUnder(session.organisations, orgId), [session.organisations, orgId]);
  const directlyBelow = below.filter((o) => o.parentId === orgId);
  // Under a region the rows are its districts (each with its schools); under a district, its schools.
  const unit = below.length > directlyBelow.length ? 'district' : 'school';

  return (
    <>
      <PageTitle>Analytics</PageTitle>
      {directlyBelow.length > 0 ? (
        <Text mb="sm">
          Figures of {organisationName} and its {directlyBelow.length} {unit === 'school' ? 'school' : 'district'}
          {directlyBelow.length === 1 ? '' : 's'}
        </Text>
      ) : null}
      {sessionFailed ? <Alert color="red" variant="filled" role="alert" mb="lg" title={analyticsMessages.customFailed} /> : null}

      <Group justify="space-between" align="center" mb="md" gap="sm" wrap="wrap">
        <Text size="sm">{ANALYTICS_SERVICE_NOTE}</Text>
        <div role="group" aria-label="Time period">
          <SegmentedControl data={[...TIME_OPTIONS]} value={option} onChange={(v) => setOption(v as TimeOption)} />
        </div>
      </Group>

      <StatTiles orgId={orgId} range={range} sessionReady={sessionReady} sessionFailed={sessionFailed} retrySession={analytics.refetch} />
      {directlyBelow.length > 0 ? (
        <OrganisationBreakdown orgId={orgId} range={range} unit={unit} sessionReady={sessionReady} sessionFailed={sessionFailed} retrySession={analytics.refetch} />
      ) : null}
      <AnalyticsCharts orgId={orgId} organisationName={organisationName} range={range} sessionReady={sessionReady} sessionFailed={sessionFailed} retrySession={analytics.refetch} />
    </>
  );
}
