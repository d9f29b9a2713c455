import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { OrganisationScreen } from './base-page.js';

/** /{orgId}/portfolios: the student portfolio download (spec §2 "Portfolios"). */
export class PortfoliosPage extends OrganisationScreen {
  constructor(page: Page, testInfo: TestInfo | null, orgId: string) {
    super(page, testInfo, orgId, 'portfolios', 'Portfolios');
  }

  protected override async whenShown(): Promise<void> {
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
