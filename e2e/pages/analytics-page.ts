import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { OrganisationScreen } from './base-page.js';

/** The charts of the Analytics screen, by their headings. */
export const ANALYTICS_CHARTS = ['Sessions', 'Session duration (hours)', 'Sessions by OS', 'Sessions by sign-in provider', 'E-mail domains', 'Books created'] as const;
export type AnalyticsChartTitle = (typeof ANALYTICS_CHARTS)[number];

/** /{orgId}/analytics: stat tiles and charts (spec §2 "Analytics"). */
export class AnalyticsPage extends OrganisationScreen {
  constructor(page: Page, testInfo: TestInfo | null, orgId: string) {
    super(page, testInfo, orgId, 'analytics', 'Analytics');
  }

  /** Ready when every tile and chart has finished loading. */
  protected override async whenShown(): Promise<void> {
    await this.waitForFigures();
  }

  async waitForFigures(): Promise<void> {
    await expect(this.page.getByRole('status')).toHaveCount(0, { timeout: 90_000 });
    await expect(this.page.locator('[aria-busy="true"]')).toHaveCount(0);
  }

  timeOption(name: 'Last 30 days' | 'Weekly' | 'Monthly'): Locator {
    return this.page.getByRole('group', { name: 'Time period' }).getByRole('radio', { name });
  }

  /** Picks a time option by its label, as a pointer user does (the radio itself is visually hidden). */
  async chooseTimeOption(name: 'Last 30 days' | 'Weekly' | 'Monthly'): Promise<void> {
    await this.page.getByRole('group', { name: 'Time period' }).getByText(name, { exact: true }).click();
    await expect(this.timeOption(name)).toBeChecked();
    await this.waitForFigures();
  }

  /** A stat tile's value, by its label (e.g. 'Students'). */
  tile(label: string | RegExp): Locator {
    return this.page.locator('dl').filter({ has: this.page.locator('dt', { hasText: label }) }).locator('dd');
  }

  /** A tile's Retry button, shown when its figure could not be loaded. */
  tileRetry(label: string): Locator {
    return this.page.getByRole('button', { name: `Retry ${label}` });
  }

  /** The labels along a chart's time axis, as drawn. */
  async axisLabels(title: AnalyticsChartTitle): Promise<string[]> {
    return this.chart(title).locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value').allTextContents();
  }

  chart(title: AnalyticsChartTitle): Locator {
    return this.page.getByRole('region', { name: title, exact: true });
  }

  /** The drawing, exposed as one image whose name points to the data table. */
  chartImage(title: AnalyticsChartTitle): Locator {
    return this.chart(title).getByRole('img', { name: /The figures are in the data table of/ });
  }

  tableButton(title: AnalyticsChartTitle): Locator {
    return this.chart(title).getByRole('button', { name: new RegExp(`^(Show|Hide) data table of ${escape(title)}$`) });
  }

  dataTable(title: AnalyticsChartTitle): Locator {
    return this.chart(title).getByRole('table');
  }

  downloadButton(title: AnalyticsChartTitle): Locator {
    return this.chart(title).getByRole('button', { name: `Download CSV of ${title}` });
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
