import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { OrganisationScreen } from './base-page.js';

/** /{orgId}: the licence dashboard (spec §2 "Licence dashboard"). */
export class LicensesPage extends OrganisationScreen {
  constructor(page: Page, testInfo: TestInfo | null, orgId: string) {
    super(page, testInfo, orgId, '', 'Licenses');
  }

  protected override async whenShown(): Promise<void> {
    await expect(this.page.getByRole('status').getByLabel('Loading licenses')).toHaveCount(0);
  }

  nameInput(): Locator {
    return this.page.getByRole('textbox', { name: 'Organisation name' });
  }

  /** Types a new name and leaves the field, which saves it. */
  async rename(name: string): Promise<void> {
    await this.nameInput().fill(name);
    await this.nameInput().press('Tab');
  }

  table(): Locator {
    return this.page.getByRole('table', { name: 'Licenses' });
  }

  licenseRow(name: string): Locator {
    return this.table().getByRole('row').filter({ has: this.page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });
  }

  contactButton(): Locator {
    return this.page.getByRole('link', { name: 'Contact us' });
  }

  switchOrganisationButton(): Locator {
    return this.page.getByRole('button', { name: 'Switch organisation' });
  }

  teachersLink(): Locator {
    return this.page.getByRole('main').getByRole('link', { name: 'Teachers' });
  }

  /** The district's section: each licence it allocates, with a table of its schools. */
  allocations(): Locator {
    return this.page.getByRole('region', { name: 'Allocated to schools' });
  }

  allocationTable(license: string): Locator {
    return this.allocations().getByRole('table', { name: license });
  }

  allocationRow(license: string, school: string): Locator {
    return this.allocationTable(license).getByRole('row').filter({ has: this.page.getByRole('rowheader', { name: school, exact: true }) });
  }

  changeAllocationButton(license: string, school: string): Locator {
    return this.page.getByRole('button', { name: `Change allocation of ${license} for ${school}` });
  }
}
