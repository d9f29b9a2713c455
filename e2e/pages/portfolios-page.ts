import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { BasePage, SCREEN_LOAD_TIMEOUT } from './base-page.js';

/** /{orgId}/portfolios: the student portfolio download (spec §2 "Portfolios"). */
export class PortfoliosPage extends BasePage {
  readonly path: string;

  constructor(page: Page, testInfo: TestInfo | null, orgId: string) {
    super(page, testInfo);
    this.path = `/${encodeURIComponent(orgId)}/portfolios`;
  }

  override async waitUntilReady(): Promise<void> {
    await expect(this.heading('Portfolios')).toBeVisible({ timeout: SCREEN_LOAD_TIMEOUT });
    await expect(this.page.getByLabel('Loading portfolio data')).toHaveCount(0);
  }

  downloadLink(): Locator {
    return this.page.getByRole('link', { name: 'Download CSV' });
  }

  status(): Locator {
    return this.page.getByRole('status');
  }

  banner(): Locator {
    return this.page.getByRole('alert');
  }
}
