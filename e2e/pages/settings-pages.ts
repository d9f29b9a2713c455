import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { OrganisationScreen } from './base-page.js';

/** /{orgId}/lms: LMS Integration (spec §2, §4 "LTI credentials"). */
export class LmsPage extends OrganisationScreen {
  constructor(page: Page, testInfo: TestInfo | null, orgId: string) {
    super(page, testInfo, orgId, 'lms', 'LMS Integration');
  }

  protected override async whenShown(): Promise<void> {
    await expect(this.table()).toBeVisible();
  }

  table(): Locator {
    return this.page.getByRole('table', { name: 'LTI Configuration' });
  }

  /** The value cell of a row ('Key', 'Secret', 'Launch url', …). */
  value(label: string): Locator {
    return this.table().getByRole('row', { name: new RegExp(`^${label}`) }).locator('td').first();
  }

  generateButton(): Locator {
    return this.page.getByRole('button', { name: 'Generate' });
  }

  revokeButton(): Locator {
    return this.page.getByRole('button', { name: 'Revoke' });
  }
}

/** /{orgId}/apps: Manage Apps (spec §2, §4 "App permission per app"). */
export class ManageAppsPage extends OrganisationScreen {
  constructor(page: Page, testInfo: TestInfo | null, orgId: string) {
    super(page, testInfo, orgId, 'apps', 'Manage Apps');
  }

  protected override async whenShown(): Promise<void> {
    await expect(this.table()).toBeVisible();
  }

  table(): Locator {
    return this.page.getByRole('table', { name: 'Apps' });
  }

  row(appName: string): Locator {
    return this.table().locator('tbody tr').filter({ hasText: appName });
  }

  permission(appName: string): Locator {
    return this.page.getByRole('combobox', { name: `Permissions: ${appName}` });
  }

  privacyButton(appName: string): Locator {
    return this.page.getByRole('button', { name: `Privacy details: ${appName}` });
  }

  /** At a district: the app's choice for its schools ('Let schools decide' or a value). */
  forSchools(appName: string): Locator {
    return this.page.getByRole('combobox', { name: `For schools: ${appName}` });
  }

  /** At a district, once a value is chosen for the schools: lock it (checked) or leave it a default. */
  lockForSchools(appName: string): Locator {
    return this.page.getByRole('checkbox', { name: `Lock for schools: ${appName}` });
  }
}

/** /{orgId}/image-search: Image Search Settings (spec §4 "Image search"). */
export class ImageSearchPage extends OrganisationScreen {
  constructor(page: Page, testInfo: TestInfo | null, orgId: string) {
    super(page, testInfo, orgId, 'image-search', 'Image Search Settings');
  }

  protected override async whenShown(): Promise<void> {
    await expect(this.toggle()).toBeVisible();
  }

  toggle(): Locator {
    return this.page.getByRole('switch', { name: 'Allow Google image search' });
  }
}

/** /{orgId}/provisioning: Provisioning (SCIM), beside LMS Integration (docs/provisioning.md). */
export class ProvisioningPage extends OrganisationScreen {
  constructor(page: Page, testInfo: TestInfo | null, orgId: string) {
    super(page, testInfo, orgId, 'provisioning', 'Provisioning (SCIM)');
  }

  protected override async whenShown(): Promise<void> {
    await expect(this.generateButton()).toBeVisible();
  }

  /** The base URL an identity provider is given, as the screen shows it. */
  baseUrl(): Locator {
    return this.page.getByText('SCIM base URL', { exact: true }).locator('xpath=following-sibling::*[1]').locator('code');
  }

  generateButton(): Locator {
    return this.page.getByRole('button', { name: 'Generate token' });
  }

  tokens(): Locator {
    return this.page.getByRole('table', { name: 'SCIM tokens' });
  }

  revokeButton(hint: string): Locator {
    return this.page.getByRole('button', { name: `Revoke token ending in ${hint}` });
  }

  requests(): Locator {
    return this.page.getByRole('table', { name: 'Recent SCIM requests' });
  }

  refreshRequestsButton(): Locator {
    return this.page.getByRole('button', { name: 'Refresh requests' });
  }
}

/** /{orgId}/rostering: Rostering, the OneRoster import (docs/rostering.md). */
export class RosteringPage extends OrganisationScreen {
  constructor(page: Page, testInfo: TestInfo | null, orgId: string) {
    super(page, testInfo, orgId, 'rostering', 'Rostering');
  }

  protected override async whenShown(): Promise<void> {
    await expect(this.uploadButton()).toBeVisible();
    await expect(this.history()).toBeVisible();
  }

  fileInput(): Locator {
    return this.page.getByLabel('OneRoster zip');
  }

  uploadButton(): Locator {
    return this.page.getByRole('button', { name: 'Upload and preview' });
  }

  /** The current import's heading: 'Preview of …', 'Applying …', 'Applied …'. */
  currentHeading(): Locator {
    return this.page.getByRole('heading', { level: 2 }).filter({ hasText: /^(Preview of|Applying|Applied|Cancelled) / });
  }

  /** The value of one count of the preview ('To add', 'To update', …). */
  count(label: string): Locator {
    return this.page.getByRole('table', { name: 'Preview counts' }).getByRole('row', { name: new RegExp(`^${label} \\d+$`) }).getByRole('cell');
  }

  confirmButton(): Locator {
    return this.page.getByRole('button', { name: 'Confirm and apply' });
  }

  history(): Locator {
    return this.page.getByRole('heading', { name: 'History' });
  }

  historyTable(): Locator {
    return this.page.getByRole('table', { name: 'Rostering imports' });
  }
}
