import { BarChart, LineChart, PieChart } from '@mantine/charts';
import { Group, SimpleGrid, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import {
  CHART_HEIGHT, PIE_CHART_HEIGHT, abbreviateNumber, analyticsMessages, signInProviderName, type AnalyticsMetric,
} from '@quire/core';
import { useAnalyticsSeries } from '../api/get-analytics-series.js';
import { useBooksCreated } from '../api/get-books-created.js';
import { booksTable, renameSeries, seriesTable, type ChartTable } from '../model/chart-table.js';
import { axisLabel, spansYears, type TimeRange } from '../model/time-range.js';
import { ChartCard } from './chart-card.js';

/** Colours with at least 3:1 contrast on white (WCAG 1.4.11), one per series. */
const COLOURS = ['blue.8', 'orange.8', 'teal.8', 'grape.7', 'red.8', 'indigo.6', 'lime.9', 'gray.7', 'cyan.9'];
const PER = { daily: 'per day', weekly: 'per week', monthly: 'per month' } as const;
/** recharts' keyboard layer would make the drawing focusable; the data table is the accessible view. */
const NOT_FOCUSABLE = { accessibilityLayer: false } as const;
/** The pie's slices are a tab stop of their own (recharts' rootTabIndex 0), without a name or a focus ring. */
const PIE_NOT_FOCUSABLE = { rootTabIndex: -1 } as const;

type PieSlice = { name: string; value: number; color: string };

/** The pie's diameter with room to spare, and the room its outside labels take beside it (Mantine adds 80 px). */
const PIE_SIZE = 220;
const PIE_LABELS_ROOM = 80;
const PIE_MIN_SIZE = 120;

/**
 * The sessions-by-OS pie, as large as its card allows up to 220 px across: with its labels it is 300 px wide, more
 * than a card has on a 320 px phone, where the labels ran off the screen (WCAG 1.4.10 Reflow).
 */
function FittedPieChart({ data }: { data: PieSlice[] }) {
  const { ref, width } = useElementSize();
  const size = width > 0 ? Math.max(PIE_MIN_SIZE, Math.min(PIE_SIZE, Math.floor(width) - PIE_LABELS_ROOM)) : PIE_SIZE;
  return (
    <div ref={ref}>
      <PieChart h={PIE_CHART_HEIGHT} size={size} withLabelsLine withLabels labelsType="percent" withTooltip tooltipDataSource="segment" mx="auto"
        data={data} pieChartProps={NOT_FOCUSABLE} pieProps={PIE_NOT_FOCUSABLE} />
    </div>
  );
}

/** The pie's legend: each slice's colour and name, so the names show without hovering or opening the table. */
function PieLegend({ data }: { data: PieSlice[] }) {
  return (
    <Group component="ul" gap="md" justify="center" mt="xs" style={{ listStyle: 'none', padding: 0 }} aria-label="Legend">
      {data.map((slice) => (
        <Group component="li" key={slice.name} gap={6} wrap="nowrap">
          <span aria-hidden style={{ width: 12, height: 12, borderRadius: 2, backgroundColor: `var(--mantine-color-${slice.color.replace('.', '-')})` }} />
          <Text size="sm">{slice.name}</Text>
        </Group>
      ))}
    </Group>
  );
}

const pieData = (t: ChartTable): PieSlice[] => t.keys.slice(0, -3).map((name, i) => ({ name, value: t.totals[i] ?? 0, color: COLOURS[i % COLOURS.length] ?? 'blue.8' }));

interface ChartsProps {
  orgId: string;
  organisationName: string;
  range: TimeRange;
  sessionReady: boolean;
  sessionFailed: boolean;
  /** Asks for the analytics session again (its failure fails every chart). */
  retrySession: () => Promise<unknown>;
}

/**
 * A series' data key: its position, not its name. A name can hold dots (an e-mail domain), which the charts read as a
 * path into the row and their legend cuts to the last part ('gmail.com' showed as 'com'); the name is its label.
 */
const seriesKey = (index: number) => `s${index}`;

/** Rows for a chart: the period's axis label and a value per series (seriesKey of the table's keys). */
function chartData(table: ChartTable, dates: string[], range: TimeRange) {
  const withYear = spansYears(range);
  return table.rows.map((row, i) => ({
    date: axisLabel(dates[i] ?? '', range.granularity, withYear),
    ...Object.fromEntries(table.keys.map((_, j) => [seriesKey(j), Number(row[j + 1] ?? 0)])),
  }));
}

/** The chart's series for some of the table's keys, each drawn from its column and labelled with its name. */
const series = (table: ChartTable, names: string[]) =>
  names.map((label, i) => ({ name: seriesKey(table.keys.indexOf(label)), label, color: COLOURS[i % COLOURS.length] ?? 'blue.8' }));

function useSeriesChart(props: ChartsProps, metric: AnalyticsMetric, options: { hours?: boolean; rename?: (name: string) => string } = {}) {
  const query = useAnalyticsSeries(props.orgId, metric, props.range.granularity, props.range, props.sessionReady);
  const data = query.data && options.rename ? renameSeries(query.data, options.rename) : query.data;
  const table = data ? seriesTable(data, props.range.granularity, { hours: options.hours }) : null;
  const dates = data?.rows.map((r) => r.date) ?? [];
  const failed = props.sessionFailed || query.isError;
  return {
    table,
    dates,
    isPending: !failed && (query.isPending || !props.sessionReady),
    error: failed ? analyticsMessages.customFailed : null,
    onRetry: () => (props.sessionFailed ? props.retrySession() : query.refetch()),
  };
}

/** The charts of spec §2: sessions, session duration, sessions by OS (pie), by sign-in provider, e-mail domains, books created. */
export function AnalyticsCharts(props: ChartsProps) {
  const { range } = props;
  const per = PER[range.granularity];
  const fileName = [props.organisationName, range.option, `${range.from}-${range.to}`];
  const sessions = useSeriesChart(props, 'sessions');
  const duration = useSeriesChart(props, 'sessions-duration', { hours: true });
  const byOs = useSeriesChart(props, 'sessions-by-os');
  const byProvider = useSeriesChart(props, 'sessions-by-provider', { rename: signInProviderName });
  const domains = useSeriesChart(props, 'email-domains');
  const booksQuery = useBooksCreated(props.orgId, range, props.sessionReady);
  const booksFailed = props.sessionFailed || booksQuery.isError;
  const books = booksQuery.data ? booksTable(booksQuery.data, range.granularity) : null;
  const bookDates = booksQuery.data?.rows.map((r) => r.date) ?? [];
  const valueFormatter = (n: number) => abbreviateNumber(n);

  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
      <ChartCard title="Sessions" height={CHART_HEIGHT} description={`Sessions of students and teachers ${per}, ${range.description}`} {...sessions} fileName={fileName}>
        {(t) => (
          <LineChart h={CHART_HEIGHT} data={chartData(t, sessions.dates, range)} dataKey="date" series={series(t, ['Students', 'Teachers', 'Total'])}
            withLegend curveType="linear" withDots={range.granularity !== 'daily' ? false : true} valueFormatter={valueFormatter} lineChartProps={NOT_FOCUSABLE} />
        )}
      </ChartCard>

      <ChartCard title="Session duration (hours)" height={CHART_HEIGHT} description={`Hours spent in sessions by students and teachers ${per}, ${range.description}`} {...duration} fileName={fileName}>
        {(t) => (
          <BarChart h={CHART_HEIGHT} data={chartData(t, duration.dates, range)} dataKey="date" type="stacked" series={series(t, ['Students', 'Teachers'])}
            withLegend valueFormatter={valueFormatter} barChartProps={NOT_FOCUSABLE} />
        )}
      </ChartCard>

      <ChartCard title="Sessions by OS" height={PIE_CHART_HEIGHT} description={`Share of sessions by operating system, ${range.description}`} {...byOs} fileName={fileName}
        legend={(t) => <PieLegend data={pieData(t)} />}>
        {(t) => <FittedPieChart data={pieData(t)} />}
      </ChartCard>

      <ChartCard title="Sessions by sign-in provider" height={CHART_HEIGHT} description={`Sessions by sign-in provider ${per}, ${range.description}`} {...byProvider} fileName={fileName}>
        {(t) => (
          <BarChart h={CHART_HEIGHT} data={chartData(t, byProvider.dates, range)} dataKey="date" type="stacked" series={series(t, t.keys.slice(0, -3))}
            withLegend valueFormatter={valueFormatter} barChartProps={NOT_FOCUSABLE} />
        )}
      </ChartCard>

      <ChartCard title="E-mail domains" height={CHART_HEIGHT} description={`Sessions by e-mail domain ${per}, ${range.description}`} {...domains} fileName={fileName}>
        {(t) => (
          <BarChart h={CHART_HEIGHT} data={chartData(t, domains.dates, range)} dataKey="date" type="stacked" series={series(t, t.keys.slice(0, -3))}
            withLegend valueFormatter={valueFormatter} barChartProps={NOT_FOCUSABLE} />
        )}
      </ChartCard>

      <ChartCard title="Books created" height={CHART_HEIGHT} description={`Books created ${per}, ${range.description}`} table={books}
        isPending={!booksFailed && (booksQuery.isPending || !props.sessionReady)} error={booksFailed ? analyticsMessages.dbFailed : null} fileName={fileName}
        onRetry={() => (props.sessionFailed ? props.retrySession() : booksQuery.refetch())}>
        {(t) => (
          <BarChart h={CHART_HEIGHT} data={chartData(t, bookDates, range)} dataKey="date" series={series(t, ['Books created'])}
            valueFormatter={valueFormatter} barChartProps={NOT_FOCUSABLE} />
        )}
      </ChartCard>
    </SimpleGrid>
  );
}
